"""The LED board as a PCB, drawn from its layout file (hardware/PCB.md is the guide).

- :mod:`tools.pcb.designs` writes the PCB layouts (hardware/layouts/pcb-*.toml): a real
  cribbage board's holes, one LED under each, the LED named by its place in its chain.
- :mod:`tools.pcb.board` places the parts and routes the copper from a layout;
  :mod:`tools.pcb.parts` holds the land patterns and what to buy.
- :mod:`tools.pcb.kicad` writes the KiCad 6 project (.kicad_pro, .kicad_pcb).
- :mod:`tools.pcb.fab` has KiCad itself (``pcbnew``, the system python3's) fill the zones,
  run its design-rule check and plot the Gerbers, the drill file, the placement and a
  render; :mod:`tools.pcb.kicad_run` is the script it runs there.
- :mod:`tools.pcb.guide` writes the generated parts of hardware/PCB.md,
  :mod:`tools.pcb.section` its section drawing.

``python -m tools.hardware --write`` writes all of it.
"""
