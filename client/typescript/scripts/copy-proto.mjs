// Copies the API's proto (proto/gridstar/v1/gridstar.proto at the
// repository's root) into the package, which loads it at run time: the one
// source of the API, never edited here.
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(dirname(fileURLToPath(import.meta.url)));
const from = join(here, "..", "..", "proto", "gridstar", "v1", "gridstar.proto");
const to = join(here, "proto", "gridstar", "v1", "gridstar.proto");
mkdirSync(dirname(to), { recursive: true });
copyFileSync(from, to);
