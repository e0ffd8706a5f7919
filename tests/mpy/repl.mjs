// A genuine MicroPython REPL (the WebAssembly port) on stdin/stdout, byte for byte, so a
// test can put it behind a pty and let mpremote talk to it as to a Pico in its REPL.
//
//   node tests/mpy/repl.mjs
//
// Where this port differs from a Pico, it answers as a Pico does: a soft reset (Ctrl-D)
// says "soft reboot" and starts the REPL again; raw-paste mode is declined (this port
// accepts it but cannot read the paste); os.stat("") is the current folder; a missing
// file is errno 2 (ENOENT), not Emscripten's 44. machine.reset() "resets" the board:
// once its OK has gone out, and when stdin ends, the files at the root of the file
// system go to stderr as JSON ({name: base64}) and the process exits.
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const RAW_PASTE = Buffer.from([0x05, 0x41, 0x01]);
const CTRL_D = 0x04;
const out = (bytes) => process.stdout.write(bytes);
const mp = await loadMicroPython({ heapsize: 4 * 1024 * 1024, linebuffer: false, stdout: out, stderr: out });
mp.runPython(`
import sys, os

def as_on_a_pico(call):
    def run(*args):
        try:
            return call(*args)
        except OSError as error:
            raise OSError(2) if error.errno == 44 else error
    return run

class PicoOs:
    pass

pico_os = PicoOs()
for name in dir(os):
    if not name.startswith("__"):
        setattr(pico_os, name, getattr(os, name))
pico_os.stat = as_on_a_pico(lambda path, stat=os.stat: stat(path or "."))
sys.modules["os"] = pico_os
open = as_on_a_pico(open)
del PicoOs, pico_os, name
`);
const before = new Set(mp.FS.readdir("/"));
mp.replInit();

let busy = Promise.resolve();
let resetting = false;

function finish() {
  const files = {};
  for (const name of mp.FS.readdir("/")) {
    if (before.has(name) || !mp.FS.isFile(mp.FS.stat(`/${name}`).mode)) continue;
    files[name] = Buffer.from(mp.FS.readFile(`/${name}`)).toString("base64");
  }
  process.stderr.write(JSON.stringify(files), () => process.exit(0));
}

process.stdin.on("data", (chunk) => {
  let data = chunk;
  const paste = data.indexOf(RAW_PASTE);
  if (paste >= 0) {
    data = Buffer.concat([data.subarray(0, paste), data.subarray(paste + RAW_PASTE.length)]);
    busy = busy.then(() => out("R\x00"));
  }
  resetting ||= data.includes("machine.reset()");
  busy = busy.then(async () => {
    for (const byte of data) {
      if (await mp.replProcessCharWithAsyncify(byte)) {
        out("soft reboot\r\n");
        mp.replInit();
      }
      if (resetting && byte === CTRL_D) setTimeout(finish, 100); // as the Pico's 100 ms
    }
  });
});
process.stdin.on("end", () => busy.then(finish));
