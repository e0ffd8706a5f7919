// Run pegboard's firmware checks under genuine MicroPython (the WebAssembly port).
//
//   node tests/mpy/run.mjs FILE.py...
//
// Copies each FILE.py flat into /fw (as on a Pico's filesystem), compiles every
// one of them (so a CPython-only construct anywhere in firmware/ fails), then
// runs firmware_checks.run() with the firmware modules and, if given, hostdata.
// Prints one PASS/FAIL line per check; exits 1 if any failed.
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import { readFileSync } from "node:fs";
import { basename } from "node:path";

const files = process.argv.slice(2);
const lines = [];
const mp = await loadMicroPython({
  heapsize: 8 * 1024 * 1024,
  stdout: (line) => { lines.push(line); console.log(line); },
  stderr: (line) => { lines.push(line); console.error(line); },
});
mp.FS.mkdir("/fw");
for (const file of files) mp.FS.writeFile(`/fw/${basename(file)}`, readFileSync(file));

const entry = `
import sys, os, binascii, struct
sys.path.insert(0, "/fw")
print("MICROPYTHON", sys.implementation.name, ".".join(str(v) for v in sys.implementation.version))
for name in sorted(os.listdir("/fw")):
    with open("/fw/" + name) as f:
        source = f.read()
    try:
        compile(source, name, "exec")
        print("PASS compile_" + name[:-3])
    except SyntaxError as e:
        print("FAIL compile_" + name[:-3], "SyntaxError:", e)

import pegproto, pegfirm, fakehw, firmware_checks

class Modules:
    pass

m = Modules()
m.pegproto, m.pegfirm, m.fakehw, m.binascii, m.struct = pegproto, pegfirm, fakehw, binascii, struct
try:
    import hostdata
    m.hostdata = hostdata
except ImportError:
    pass
firmware_checks.run(m)
`;
try {
  mp.runPython(entry);
} catch (error) {
  console.error(String(error));
  process.exit(2);
}
process.exit(lines.some((line) => line.startsWith("FAIL")) ? 1 : 0);
