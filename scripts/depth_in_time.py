#!/usr/bin/env python3
"""Depth reached by `alea` in a fixed time on the bench suite's middlegames, before the roll and
after one, through the protocol. Usage: scripts/depth_in_time.py [MILLISECONDS] [PATH_TO_ALEA]"""
import subprocess
import sys

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
QGD = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R1BQKB1R w KQ - 0 8"
GIUOCO = "r2q1rk1/ppp2ppp/2npbn2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 8"
ROOTS = [
    ("freedom", "kiwipete", KIWIPETE, "2"),
    ("freedom", "queen's gambit", QGD, "2"),
    ("freedom", "giuoco piano", GIUOCO, "2"),
    ("classic", "queen's gambit", QGD, "2 5"),
    ("brainking", "giuoco piano", GIUOCO, "2"),
]


def main():
    ms = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    alea = sys.argv[2] if len(sys.argv) > 2 else "target/release/alea"
    engine = subprocess.Popen([alea], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        engine.stdin.write(line + "\n")

    def until(prefix):
        lines = []
        for line in engine.stdout:
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines
        raise SystemExit("alea stopped")

    send("uci")
    until("uciok")
    for variant, name, fen, roll in ROOTS:
        for when, words in (("before the roll", ""), (f"after roll {roll}", f" roll {roll}")):
            send(f"setoption name UCI_Variant value {variant}")
            send("ucinewgame")
            send(f"position fen {fen}")
            send(f"go movetime {ms}{words}")
            lines = until("bestmove")
            depths = [int(l.split()[2]) for l in lines if l.startswith("info depth ")]
            print(f"{variant:<10} {name:<15} {when:<16} depth {max(depths, default=0)}")
    send("quit")


if __name__ == "__main__":
    main()
