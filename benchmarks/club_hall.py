"""A hall of LED boards for the club benchmark, in one process: ``boards`` boards, each on
a loopback port of its own, speaking the board's side of the club protocol as a board
does (pegboard.panel.clubs): ``POST /api/pair`` and ``/api/pair/confirm`` pair it by
its PIN (SPAKE2, pegboard.pairing), ``POST /api/club/start`` (signed, with an
Idempotency-Key) starts a game of two named players for the club's start, ``GET
/api/log?game=N`` (signed) says where it stands and, once it is over, sends its whole
chained log with the board's signature of its end; every answer is signed with the
board's identity for its request's nonce. ``GET /api/events`` is the board's live
stream: a ``state`` message with the game's ``chain`` (entries, head, over) when a game
starts, half-way through and the moment it is over, and a comment every 5 s.

Each game is over ``seconds`` after it started (a night's 15 minutes, shortened) and its
log is a game really played at a pegboard table (given as ``logs``), its players renamed
and its chain made again for this board's game number: the club replays every entry
with the rules as it does a real board's. Requests with a wrong signature are refused,
as a board refuses them.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from pegboard import pairing
from pegboard.game.chain import GameLog, chained, ended
from pegboard.identity import Identity
from pegboard.panel.signing import ANSWER, NONCE, PAIRING, SIGNATURE, TIME, request_signature

PIN = "1357"


@dataclass
class FakeBoard:
    identity: Identity = field(default_factory=Identity.generate)
    keys: dict[str, bytes] = field(default_factory=dict)  # pairing -> pairing key
    exchanges: dict[str, pairing.Agreed] = field(default_factory=dict)
    games: list[tuple[float, GameLog]] = field(default_factory=list)  # (over at, log)
    started: dict[str, int] = field(default_factory=dict)  # Idempotency-Key -> game
    streams: list[asyncio.StreamWriter] = field(default_factory=list)  # following it

    def tell(self, game: int, versions: int) -> None:
        """A ``state`` message to every stream: ``game`` at ``versions`` entries."""
        _, log = self.games[game - 1]
        chain = {
            "game": game,
            "versions": versions,
            "head": log.entries[versions - 1].chain.hex(),
            "over": versions == len(log.entries),
        }
        data = json.dumps({"game_id": game, "chain": chain})
        for stream in list(self.streams):
            stream.write(f"event: state\ndata: {data}\n\n".encode())


def renamed(log: GameLog, game: int, players: list[str], asked: str, me: Identity) -> GameLog:
    """``log`` as game ``game`` of ``players`` for the club's start ``asked``, chained
    again and its end signed by ``me``."""
    rows = [(e.type, e.data, e.at) for e in log.entries]
    first = json.loads(rows[0][1])
    first["settings"]["players"] = players
    rows[0] = (rows[0][0], json.dumps(first), rows[0][2])
    entries = chained(game, rows)
    made = GameLog(game, tuple(entries), entries[-1].chain, asked)
    return GameLog(game, made.entries, made.head, asked, me.sign(ended(made)))


class Hall:
    def __init__(self, logs: list[GameLog], seconds: tuple[float, float], seed: int) -> None:
        self.logs, self.seconds, self.rng = logs, seconds, random.Random(seed)
        self.boards: dict[int, FakeBoard] = {}
        self.requests = 0

    def answer(
        self, board: FakeBoard, method: str, target: str, headers: dict[str, str], body: bytes
    ) -> tuple[int, Any]:
        self.requests += 1
        if (method, target) == ("POST", "/api/pair"):
            reply, agreed = pairing.board_answer(PIN, bytes.fromhex(json.loads(body)["spake"]))
            exchange = f"x{len(board.exchanges)}"
            board.exchanges[exchange] = agreed
            return 200, {"pairing": exchange, "spake": reply.hex()}
        if (method, target) == ("POST", "/api/pair/confirm"):
            confirm = json.loads(body)
            agreed = board.exchanges.pop(confirm["pairing"])
            if not agreed.check_club(bytes.fromhex(confirm["proof"])):
                return 401, {"error": "wrong PIN"}
            board.keys[confirm["pairing"]] = agreed.pairing_key()
            public = board.identity.public
            proof = agreed.board_proof(public).hex()
            return 200, {"key": confirm["pairing"], "public": public.hex(), "proof": proof}
        at, nonce = headers.get(TIME.lower(), "0"), headers.get(NONCE.lower(), "")
        sent = headers.get(SIGNATURE.lower(), "")
        pairing_key = board.keys.get(headers.get(PAIRING.lower(), ""), b"")
        if sent != request_signature(pairing_key, method, target, int(at), nonce, body):
            return 401, {"error": "pair the club with this board first"}
        if (method, target) == ("POST", "/api/club/start"):
            once, sent_start = headers.get("idempotency-key", ""), json.loads(body)
            asked = pairing.asked(**sent_start["asked"])
            if once not in board.started:
                game = len(board.games) + 1
                played = self.rng.choice(self.logs)
                log = renamed(played, game, sent_start["players"], asked, board.identity)
                seconds = self.rng.uniform(*self.seconds)
                board.games.append((time.time() + seconds, log))
                board.started[once] = game
                self.told(board, game, seconds)
            return 200, {"game": board.started[once], "asked": asked}
        if method == "GET" and target.startswith("/api/log?game="):
            game = int(target.rsplit("=", 1)[1])
            if not 1 <= game <= len(board.games):
                return 404, {"error": f"there is no game {game} on this board"}
            over_at, log = board.games[game - 1]
            over = time.time() >= over_at
            logged: dict[str, Any] = {"game": game, "over": over, "asked": log.asked}
            logged["versions"] = len(log.entries) if over else len(log.entries) // 2
            if over:
                logged["log"] = log.as_dict()
            return 200, logged
        return 404, {"error": "no such thing here"}

    def told(self, board: FakeBoard, game: int, seconds: float) -> None:
        """The stream's messages of a game just started: now, half-way, at its end."""
        loop, entries = asyncio.get_running_loop(), len(board.games[game - 1][1].entries)
        board.tell(game, 1)
        loop.call_later(seconds / 2, board.tell, game, entries // 2)
        loop.call_at(loop.time() + seconds, board.tell, game, entries)

    async def stream(self, board: FakeBoard, writer: asyncio.StreamWriter) -> None:
        """The live stream: its first message (the game being played), then comments."""
        self.requests += 1
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n")
        board.streams.append(writer)
        if board.games:
            game = len(board.games)
            over, log = board.games[-1]
            board.tell(game, len(log.entries) if time.time() >= over else 1)
        try:
            while not writer.is_closing():
                writer.write(b": still here\n\n")
                await writer.drain()
                await asyncio.sleep(5)
        finally:
            board.streams.remove(writer)

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        board = self.boards[writer.get_extra_info("sockname")[1]]
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                method, target, _ = lines[0].split(" ", 2)
                headers = {}
                for line in lines[1:]:
                    if ":" in line:
                        name, value = line.split(":", 1)
                        headers[name.strip().lower()] = value.strip()
                body = await reader.readexactly(int(headers.get("content-length", "0")))
                if (method, target) == ("GET", "/api/events"):
                    await self.stream(board, writer)
                    return
                status, answer = self.answer(board, method, target, headers, body)
                data = json.dumps(answer).encode()
                said = pairing.answered(headers.get(NONCE.lower(), ""), status, data)
                writer.write(
                    f"HTTP/1.1 {status} X\r\nContent-Type: application/json\r\n"
                    f"{ANSWER}: {board.identity.sign(said).hex()}\r\n"
                    f"Content-Length: {len(data)}\r\n\r\n".encode()
                    + data
                )
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError, OSError):
            pass
        finally:
            writer.close()

    def over_at(self) -> dict[tuple[int, int], float]:
        """When each game was over: (port, game) -> Unix seconds."""
        return {
            (port, game): over
            for port, board in self.boards.items()
            for game, (over, _) in enumerate(board.games, start=1)
        }


def run(
    pipe: Connection, boards: int, logs: list[dict[str, Any]], seconds: tuple[float, float]
) -> None:
    """The hall, until the parent sends anything: then it answers when each game was
    over and how many requests it answered, and ends. It first sends its ports."""
    hall = Hall([GameLog.from_dict(log) for log in logs], seconds, seed=boards)

    async def main() -> None:
        servers = []
        for _ in range(boards):
            server = await asyncio.start_server(hall.serve, "127.0.0.1", 0, backlog=64)
            hall.boards[server.sockets[0].getsockname()[1]] = FakeBoard()
            servers.append(server)
        pipe.send(sorted(hall.boards))
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, pipe.recv)
        pipe.send((hall.over_at(), hall.requests))
        for server in servers:
            server.close()

    asyncio.run(main())
