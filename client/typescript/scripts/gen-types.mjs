// The TypeScript types of gridstar.v1 (src/generated/), made from the API's
// proto by @grpc/proto-loader's generator with the options the client loads
// the proto with. Committed, so that building needs no generator run;
//   node scripts/gen-types.mjs          rewrite src/generated/
//   node scripts/gen-types.mjs --check  exit 1 if they differ from the proto
//                                       (run by CTest: TypeScriptTypesMatchProto)
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(dirname(fileURLToPath(import.meta.url)));
const protoRoot = join(here, "..", "..", "proto");
const check = process.argv.includes("--check");
const out = check ? mkdtempSync(join(tmpdir(), "gridstar-types-")) : join(here, "src", "generated");

execFileSync(join(here, "node_modules", ".bin", "proto-loader-gen-types"), [
  "--longs=String", "--enums=String", "--defaults", "--oneofs", "--includeComments",
  "--grpcLib=@grpc/grpc-js", `--outDir=${out}`, "gridstar/v1/gridstar.proto",
  "--includeDirs", ".",
], { stdio: "inherit", cwd: protoRoot });  // Relative: no path of this machine in the files.

// The generated files (not dotfiles: src/generated/.clang-format keeps
// `git clang-format` off them, which would reformat them otherwise).
function files(dir) {
  return readdirSync(dir).filter((name) => !name.startsWith(".")).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

if (check) {
  const want = join(here, "src", "generated");
  const made = files(out).map((f) => relative(out, f)).sort();
  const have = files(want).map((f) => relative(want, f)).sort();
  const differ = made.filter((f) => !have.includes(f) ||
      readFileSync(join(out, f), "utf8") !== readFileSync(join(want, f), "utf8"));
  const extra = have.filter((f) => !made.includes(f));
  rmSync(out, { recursive: true, force: true });
  if (differ.length || extra.length) {
    console.error("gen-types: client/typescript/src/generated differs from proto/ " +
                  `(${[...differ, ...extra].join(", ")}): run npm run gen`);
    process.exit(1);
  }
}
