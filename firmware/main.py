"""Pegboard LED firmware for a Raspberry Pi Pico: the entry point MicroPython runs at boot.

Install (MicroPython for the Pico already flashed)::

    mpremote cp firmware/main.py firmware/pico.py firmware/pegfirm.py firmware/pegproto.py :

Once running, the firmware owns the USB serial port: Ctrl-C is disabled (a 0x03
byte is data) and a watchdog resets a hung firmware. Two ways back to the REPL
for ``mpremote``:

1. From the host, with the pegboard service stopped: ``python -m pegboard.leds.pico repl``
   sends a REPL frame; the Pico reboots once into the plain REPL. The next reset
   (or power cycle) starts the firmware again.
2. Hold GP22 to GND while plugging the Pico in; the firmware does not start
   while it is held at boot.
"""

import pico

if __name__ == "__main__":
    pico.main()
