// The client's vocabulary: gridstar's one rule for enum names
// (core/include/gridstar/types.h), read from the proto's own enums, so no
// table is kept here.
//
// - printed (canonical): the value's name without its prefix, lower case,
//   words joined by '-', a trailing PLUS as '+': "jps+", "no-corner-cutting";
// - read: any case, words joined by '-', '_' or ' ', "+" or "_plus", with or
//   without the prefix: "jps+", "jps_plus", "JPS_PLUS" and
//   "ALGORITHM_JPS_PLUS" are one value. Numbers of the enum are read too.

import type { EnumTypeDefinition } from "@grpc/proto-loader";

export interface EnumValue {
  name: string;
  number: number;
}

/** The values of an enum definition of the loaded proto. */
export function enumValues(definition: EnumTypeDefinition): EnumValue[] {
  const type = definition.type as unknown as { value: EnumValue[] };
  return type.value.map((v) => ({ name: v.name, number: v.number }));
}

/** "DiagonalPolicy" -> "DIAGONAL_POLICY_". */
export function enumPrefix(enumName: string): string {
  return enumName.replace(/(?<!^)([A-Z])/g, "_$1").toUpperCase() + "_";
}

function normalize(text: string, prefix: string): string {
  let s = "";
  for (const c of text.trim()) {
    if (c === "+") s += "_plus";
    else if (c === "-" || c === " ") s += "_";
    else s += c.toLowerCase();
  }
  const p = prefix.toLowerCase();
  return p && s.startsWith(p) ? s.slice(p.length) : s;
}

/** The canonical name of a value ("jps+") given its proto name or number. */
export function canonical(enumName: string, values: EnumValue[], value: string | number): string {
  const v = values.find((e) => e.name === value || e.number === value);
  if (v === undefined) return String(value);
  let snake = normalize(v.name, enumPrefix(enumName));
  const plus = snake.endsWith("_plus");
  if (plus) snake = snake.slice(0, -"_plus".length);
  return snake.replace(/_/g, "-") + (plus ? "+" : "");
}

/**
 * The proto name of `value` (any spelling, or a number of the enum);
 * undefined and null are the server's default (the UNSPECIFIED value).
 * Throws a RangeError naming `field` for a value the enum does not have.
 */
export function protoName(
  enumName: string,
  values: EnumValue[],
  value: string | number | undefined | null,
  field: string,
): string {
  if (value === undefined || value === null) {
    return values.find((v) => v.number === 0)?.name ?? "";
  }
  if (typeof value === "number") {
    const v = values.find((e) => e.number === value);
    if (v === undefined) throw new RangeError(`${field}: ${value} is not a ${enumName}`);
    return v.name;
  }
  if (typeof value !== "string") {
    throw new TypeError(`${field}: expected a name, got ${JSON.stringify(value)}`);
  }
  const prefix = enumPrefix(enumName);
  const typed = normalize(value, prefix);
  for (const v of values) {
    if (!v.name.endsWith("_UNSPECIFIED") && typed && typed === normalize(v.name, prefix)) {
      return v.name;
    }
  }
  const choices = values
    .filter((v) => !v.name.endsWith("_UNSPECIFIED"))
    .map((v) => canonical(enumName, values, v.number))
    .join(", ");
  throw new RangeError(`${field}: unknown value ${JSON.stringify(value)} (one of ${choices})`);
}
