"""Checks of the firmware's protocol and message handling, run by both interpreters.

CPython runs them from tests/test_firmware.py; genuine MicroPython (WebAssembly,
under Node) runs them from tests/mpy/run.mjs, with the firmware files copied
flat into its filesystem as on a Pico. Hence this file keeps to the subset too,
and gets the firmware modules passed in rather than importing them.

Each check takes ``m``, an object with ``pegproto``, ``pegfirm`` and ``fakehw``.
"""


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


def raises(m, call, *args):
    try:
        call(*args)
    except m.pegproto.FrameError:
        return True
    return False


def board(leds, seed):
    """A recognisable RGB strip of ``leds`` LEDs."""
    return bytes(((i * 7 + seed) % 256) for i in range(3 * leds))


def received(m, hw):
    """Messages the firmware sent since the last call, as (type, seq, payload)."""
    out = []
    for frame in m.pegproto.Deframer().feed(bytes(hw.sent)):
        out.append(m.pegproto.unpack(frame))
    hw.sent = bytearray()
    return out


def booted(m, strips=((2, 5), (3, 2))):
    """A firmware on fake hardware, booted and set up with ``strips``."""
    hw = m.fakehw.FakeHardware()
    fw = m.pegfirm.Firmware(hw)
    fw.boot()
    hw.receive(m.pegproto.pack(m.pegproto.SETUP, 1, m.pegproto.pack_strips(list(strips))))
    fw.step()
    received(m, hw)
    return hw, fw


def send(m, hw, fw, kind, seq, payload=b""):
    hw.receive(m.pegproto.pack(kind, seq, payload))
    fw.step()
    return received(m, hw)


# -- the protocol module ----------------------------------------------------------


def check_cobs_round_trip(m):
    p = m.pegproto
    samples = [
        b"",
        b"\x00",
        b"\x00\x00",
        b"a",
        bytes(range(256)),
        bytes(range(1, 256)) * 2,
        b"\x01" * 254,
        b"\x01" * 254 + b"\x00",
        b"\x01" * 255,
        b"\x00\x01" * 500,
    ]
    for data in samples:
        coded = p.cobs_encode(data)
        expect(coded.find(b"\x00") < 0, "a zero left in COBS output")
        expect(p.cobs_decode(coded) == data, f"COBS round trip of {len(data)} bytes")


def check_cobs_refuses_broken_blocks(m):
    p = m.pegproto
    expect(raises(m, p.cobs_decode, b"\x05ab"), "a block running past the end")
    expect(raises(m, p.cobs_decode, b"\x02a\x00"), "a zero code byte")


def check_message_round_trip(m):
    p = m.pegproto
    for kind in (p.HELLO, p.SETUP, p.STATE, p.BRIGHTNESS, p.HEARTBEAT, p.ACK, p.REPL):
        for payload in (b"", b"\x00" * 300, bytes(range(256))):
            wire = p.pack(kind, 70000, payload)
            inner = wire[1:-1]
            expect(wire[0] == wire[-1] == 0 and inner.find(b"\x00") < 0, "zeros only around")
            expect(p.unpack(inner) == (kind, 70000 & 0xFFFF, payload), "round trip")


def check_every_flipped_bit_is_refused(m):
    p = m.pegproto
    frame = p.pack(p.STATE, 3, p.pack_state([board(4, 1)]))[1:-1]
    for i in range(len(frame)):
        for bit in range(8):
            bad = bytearray(frame)
            bad[i] ^= 1 << bit
            expect(raises(m, p.unpack, bytes(bad)), f"flip of bit {bit} in byte {i} passed")


def check_every_dropped_byte_is_refused(m):
    p = m.pegproto
    frame = p.pack(p.STATE, 4, p.pack_state([board(4, 2)]))[1:-1]
    for i in range(len(frame)):
        bad = frame[:i] + frame[i + 1 :]
        expect(raises(m, p.unpack, bad), f"frame without byte {i} passed")


def check_other_version_is_refused_with_its_seq(m):
    p = m.pegproto
    body = bytes((p.VERSION + 1, p.HEARTBEAT, 9, 0))
    crc = m.binascii.crc32(body) & 0xFFFFFFFF
    frame = p.cobs_encode(body + m.struct.pack("<I", crc))
    try:
        p.unpack(frame)
    except p.FrameError as e:
        expect(e.args[1] == 9, "the seq of a frame from another version")
        return
    raise AssertionError("a frame from another protocol version passed")


def check_deframer_resynchronises_after_garbage(m):
    p = m.pegproto
    frame = p.pack(p.HEARTBEAT, 5)
    d = p.Deframer()
    frames = d.feed(b"\x13\x37garbage\xff" + frame[:3])
    frames += d.feed(frame[3:] + b"noise" + frame)
    good = [f for f in frames if not raises(m, p.unpack, f)]
    expect(len(good) == 2 and p.unpack(good[0]) == (p.HEARTBEAT, 5, b""), "frames after garbage")


def check_deframer_drops_endless_garbage(m):
    d = m.pegproto.Deframer(limit=100)
    d.feed(b"\xaa" * 150)
    expect(len(d.buffer) == 0 and d.overflows == 1, "garbage without a zero is dropped")


def check_state_round_trip(m):
    p = m.pegproto
    strips = [bytearray(board(5, 3)), bytearray(3 * 300), bytearray(b"\x01\x02\x03" * 700)]
    expect(p.unpack_state(p.pack_state(strips)) == strips, "board state round trip")


def check_malformed_state_is_refused(m):
    p = m.pegproto
    good = p.pack_state([board(3, 4)])
    bad = [
        b"",
        good[:-1],
        good + b"\x00",
        b"\x01\x03\x00\x00\x00\x00\x00",  # a run of 0
        b"\x01\x03\x00\x04\x01\x02\x03",  # a run past the strip
        b"\x09" + good[1:],  # more strips than a Pico has
    ]
    for payload in bad:
        expect(raises(m, p.unpack_state, payload), f"malformed STATE {payload!r} passed")


# -- the firmware ---------------------------------------------------------------


def check_boot_disables_ctrl_c_arms_watchdog_and_says_hello(m):
    p = m.pegproto
    hw = m.fakehw.FakeHardware(boot_id=0xB007)
    fw = m.pegfirm.Firmware(hw)
    fw.boot()
    expect(hw.kbd_intr == -1 and hw.watchdog, "Ctrl-C off, watchdog armed")
    kind, _, payload = received(m, hw)[0]
    expect(kind == p.HELLO, "HELLO first")
    expect(p.unpack_hello(payload) == (p.FIRMWARE_VERSION, 0xB007, []), "HELLO contents")
    expect(p.hello_micropython(payload) == tuple(hw.micropython), "HELLO names MicroPython")
    fw.step()
    expect(hw.feeds == 1, "the watchdog is fed every step")


def check_setup_then_state_lights_the_leds(m):
    p = m.pegproto
    hw, fw = booted(m)
    expect(hw.pins == [2, 3], "strips on GP2 and GP3")
    strips = [board(5, 10), board(2, 20)]
    out = send(m, hw, fw, p.STATE, 42, p.pack_state(strips))
    expect(out == [(p.ACK, out[0][1], p.pack_ack(42, p.OK))], "STATE acked by seq")
    expect([bytes(b) for b in hw.leds] == strips, "the LEDs show the board")
    shows = hw.shows
    send(m, hw, fw, p.STATE, 43, p.pack_state(strips))
    expect(hw.shows == shows, "the same board again is acked but not redrawn")


def check_each_led_goes_down_the_wire_in_the_colour_order_set_up(m):
    p = m.pegproto
    hw, fw = booted(m, ((2, 2),))
    red_blue = b"\xff\x00\x00\x00\x00\x80"
    send(m, hw, fw, p.STATE, 1, p.pack_state([red_blue]))
    expect(bytes(hw.wire[0]) == b"\x00\xff\x00\x00\x00\x80", "GRB unless told: red is G, R, B")
    out = send(m, hw, fw, p.SETUP, 2, p.pack_setup([(2, 2)], p.ORDERS.index("RGB")))
    expect(p.unpack_ack(out[0][2]) == (2, p.OK), "SETUP with a colour order acked")
    expect(hw.order == p.ORDERS.index("RGB"), "the order alone sets the strips up again")
    send(m, hw, fw, p.STATE, 3, p.pack_state([red_blue]))
    expect(bytes(hw.wire[0]) == red_blue, "RGB: the bytes as sent")
    expect(bytes(hw.leds[0]) == red_blue, "the board itself is RGB whatever the order")
    send(m, hw, fw, p.SETUP, 4, p.pack_setup([(2, 2)], p.ORDERS.index("BGR")))
    send(m, hw, fw, p.STATE, 5, p.pack_state([b"\x01\x02\x03\x04\x05\x06"]))
    expect(bytes(hw.wire[0]) == b"\x03\x02\x01\x06\x05\x04", "BGR: each LED backwards")
    shown = p.from_wire(hw.wire[0], p.ORDERS.index("BGR"))
    expect(bytes(shown) == b"\x01\x02\x03\x04\x05\x06", "a BGR strip shows what was sent")


def check_a_colour_order_not_known_is_refused(m):
    p = m.pegproto
    hw, fw = booted(m, ((2, 2),))
    payload = p.pack_strips([(2, 2)]) + bytes((len(p.ORDERS),))
    out = send(m, hw, fw, p.SETUP, 6, payload)
    expect(p.unpack_ack(out[0][2]) == (6, p.BAD_PAYLOAD), "an order past ORDERS is refused")
    expect(hw.order == 0 and hw.pins == [2], "the strips stay as they were")


def check_the_link_lost_dot_is_red_in_any_colour_order(m):
    p = m.pegproto
    hw, fw = booted(m, ((2, 3),))
    send(m, hw, fw, p.SETUP, 1, p.pack_setup([(2, 3)], p.ORDERS.index("RGB")))
    send(m, hw, fw, p.STATE, 2, p.pack_state([bytes(9)]))
    hw.now += 5100
    fw.step()
    expect(bytes(hw.wire[0]).count(b"\x40\x00\x00") == 1, "red first on an RGB strip")


def check_damaged_state_changes_nothing(m):
    p = m.pegproto
    hw, fw = booted(m)
    send(m, hw, fw, p.STATE, 1, p.pack_state([board(5, 1), board(2, 1)]))
    before, shows = [bytes(b) for b in hw.leds], hw.shows
    wire = bytearray(p.pack(p.STATE, 2, p.pack_state([board(5, 9), board(2, 9)])))
    wire[len(wire) // 2] ^= 0x10
    hw.receive(wire)
    fw.step()
    expect(received(m, hw) == [], "no ack for a damaged frame")
    expect([bytes(b) for b in hw.leds] == before and hw.shows == shows, "LEDs unchanged")
    expect(fw.bad_frames == 1, "counted as bad")


def check_state_for_other_strips_is_refused(m):
    p = m.pegproto
    hw, fw = booted(m)
    out = send(m, hw, fw, p.STATE, 7, p.pack_state([board(5, 1)]))
    expect(p.unpack_ack(out[0][2]) == (7, p.NOT_SET_UP), "refused: strips differ")
    expect(hw.leds == [bytearray(15), bytearray(6)], "LEDs still dark")


def check_brightness_dims_the_board(m):
    p = m.pegproto
    hw, fw = booted(m, ((2, 1),))
    send(m, hw, fw, p.STATE, 1, p.pack_state([b"\xff\x80\x10"]))
    out = send(m, hw, fw, p.BRIGHTNESS, 2, b"\x80")
    expect(p.unpack_ack(out[0][2]) == (2, p.OK), "BRIGHTNESS acked")
    expect(bytes(hw.leds[0]) == b"\x80\x40\x08", "dimmed to half")


def check_setup_on_impossible_pins_is_refused(m):
    p = m.pegproto
    hw, fw = booted(m)
    for strips in ([(30, 4)], [(4, 4), (4, 5)], [(2, 1001)]):
        out = send(m, hw, fw, p.SETUP, 6, p.pack_strips(strips))
        expect(p.unpack_ack(out[0][2]) == (6, p.BAD_PAYLOAD), "SETUP refused: " + repr(strips))
    expect(hw.pins == [2, 3], "the strips stay as they were")


def check_setup_on_pins_not_free_for_strips_is_refused(m):
    p = m.pegproto
    hw, fw = booted(m)
    send(m, hw, fw, p.STATE, 1, p.pack_state([board(5, 1), board(2, 1)]))
    shown = hw.shows
    for pin in (22, 23, 24, 25, 29):  # the REPL pin; wired on the Pico itself
        out = send(m, hw, fw, p.SETUP, pin, p.pack_strips([(2, 5), (pin, 2)]))
        expect(p.unpack_ack(out[0][2]) == (pin, p.BAD_PIN), "SETUP on GP" + str(pin) + " refused")
    expect(hw.pins == [2, 3] and hw.shows == shown, "the strips and LEDs stay as they were")
    out = send(m, hw, fw, p.SETUP, 40, p.pack_strips([(0, 1), (21, 1), (26, 1), (28, 1)]))
    expect(p.unpack_ack(out[0][2]) == (40, p.OK), "GP0, GP21, GP26, GP28 are free")


def check_a_hello_from_old_firmware_names_no_micropython(m):
    p = m.pegproto
    payload = p.pack_hello(5, [(2, 3)], version=(1, 0, 0))[:-3]
    expect(p.unpack_hello(payload) == ((1, 0, 0), 5, [(2, 3)]), "read as before")
    expect(p.hello_micropython(payload) is None, "no MicroPython version")
    expect(raises(m, p.unpack_hello, payload + b"\x01"), "a HELLO with a stray byte is refused")


def check_micropython_older_than_the_minimum_is_named(m):
    p = m.pegproto
    low = (p.MICROPYTHON_MIN[0], p.MICROPYTHON_MIN[1] - 1, 9)
    problem = p.micropython_problem(low)
    expect(problem is not None and problem.find("1.19.9") >= 0, "the old version is named")
    expect(problem.find(".".join([str(v) for v in p.MICROPYTHON_MIN])) >= 0, "so is the minimum")
    expect(p.micropython_problem(p.MICROPYTHON_MIN) is None, "the minimum itself is fine")
    expect(p.micropython_problem((1, 24, 1)) is None, "a newer one is fine")


def check_setup_the_chip_cannot_do_is_refused_and_firmware_runs_on(m):
    p = m.pegproto
    hw, fw = booted(m)
    hw.faulty_pins = [7]
    out = send(m, hw, fw, p.SETUP, 8, p.pack_strips([(7, 3)]))
    expect(p.unpack_ack(out[0][2]) == (8, p.HARDWARE), "refused: the chip failed")
    out = send(m, hw, fw, p.STATE, 9, p.pack_state([board(3, 1)]))
    expect(p.unpack_ack(out[0][2]) == (9, p.NOT_SET_UP), "no board without strips")
    out = send(m, hw, fw, p.SETUP, 10, p.pack_strips([(8, 3)]))
    expect(p.unpack_ack(out[0][2]) == (10, p.OK) and hw.pins == [8], "a good SETUP works")


def check_unknown_message_is_refused(m):
    p = m.pegproto
    hw, fw = booted(m)
    out = send(m, hw, fw, 99, 5)
    expect(p.unpack_ack(out[0][2]) == (5, p.BAD_TYPE), "unknown type refused")


def check_silent_host_hears_hello_each_second(m):
    p = m.pegproto
    hw, fw = booted(m)
    hw.now += 1500
    fw.step()
    expect(received(m, hw) == [], "quiet while the host spoke recently")
    for _ in range(2):
        hw.now += 1000
        fw.step()
        expect([k for k, _, _ in received(m, hw)] == [p.HELLO], "HELLO while silent")


def check_link_lost_pattern_over_last_board(m):
    p = m.pegproto
    hw, fw = booted(m, ((2, 4),))
    lit = b"\x80" * 12
    send(m, hw, fw, p.STATE, 1, p.pack_state([lit]))
    hw.now += 4900
    fw.step()
    expect(bytes(hw.leds[0]) == lit, "still the board before 5 s")
    hw.now += 200
    fw.step()
    shown = bytes(hw.leds[0])
    expect(shown != lit and shown.count(b"\x40\x00\x00") == 1, "a red dot over the dimmed board")
    expect(shown.count(b"\x20") >= 9, "the rest of the board at a quarter")
    hw.now += 100
    fw.step()
    expect(bytes(hw.leds[0]) != shown, "the dot moves")
    send(m, hw, fw, p.HEARTBEAT, 2)
    expect(bytes(hw.leds[0]) == lit, "the board is back once the host is")


def check_repl_frame_leaves_for_the_repl(m):
    p = m.pegproto
    hw, fw = booted(m)
    fw.running = True
    send(m, hw, fw, p.REPL, 3, b"nope")
    expect(not hw.in_repl, "a REPL frame without the magic is refused")
    out = send(m, hw, fw, p.REPL, 4, p.REPL_MAGIC)
    expect(p.unpack_ack(out[0][2]) == (4, p.OK), "acked before leaving")
    expect(hw.in_repl and not fw.running, "left for the REPL")


def check_host_frames_from_the_other_interpreter(m):
    """Frames the host (CPython) encoded light the right LEDs here."""
    data = getattr(m, "hostdata", None)
    if data is None:
        return
    p = m.pegproto
    hw = m.fakehw.FakeHardware(boot_id=data.BOOT_ID)
    fw = m.pegfirm.Firmware(hw)
    fw.boot()
    hw.receive(m.binascii.unhexlify(data.WIRE))
    fw.step()
    expect([m.binascii.hexlify(b).decode() for b in hw.leds] == data.LEDS, "LEDs from host frames")
    wire = [m.binascii.hexlify(b).decode() for b in hw.wire]
    expect(wire == data.ON_THE_WIRE, "in the colour order the host set up (BGR)")
    print("SENT", m.binascii.hexlify(hw.sent).decode())
    expect(p.VERSION == data.VERSION, "one protocol version")


CHECKS = [value for name, value in sorted(globals().items()) if name.startswith("check_")]


def run(m):
    """Run every check; print and return ``[(name, error or None)]``."""
    results = []
    for check in CHECKS:
        try:
            check(m)
            error = None
        except Exception as e:
            error = f"{type(e).__name__}: {e}"
        results.append((check.__name__, error))
        print("PASS" if error is None else "FAIL", check.__name__, error or "")
    return results
