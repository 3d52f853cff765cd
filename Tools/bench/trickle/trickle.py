#!/usr/bin/env python3
"""Latency of a normal client while one address trickles request heads.

    trickle.py PORT [--connections 1500] [--seconds 20] [--requests 200] [--path /v1/users/bob]
               [--token sandbox-alice]

Opens CONNECTIONS connections to 127.0.0.1:PORT from 127.0.0.1, each sending its request head one
byte every 200 ms (and reconnecting, 1 s after the server closes it); once they are
open, a normal client from 127.0.0.2 sends REQUESTS requests, one a new connection, 20 ms apart,
and times each from connect to the last byte of the answer. Prints one line of figures:

    client p50_ms p99_ms max_ms failed tricklers_open_at_end reconnects

Every wait is bounded; every socket is closed on exit.
"""
import argparse
import selectors
import socket
import threading
import time

HEAD = b"GET /slow HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"s" * 4000 + b"\r\n\r\n"


def trickler(port, count, stop, stats):
    sel = selectors.DefaultSelector()
    conns = {}  # socket -> bytes sent

    def open_one():
        s = socket.socket()
        s.setblocking(False)
        s.bind(("127.0.0.1", 0))
        try:
            s.connect(("127.0.0.1", port))
        except BlockingIOError:
            pass
        except OSError:
            s.close()
            return False
        conns[s] = 0
        sel.register(s, selectors.EVENT_READ)
        return True

    for _ in range(count):
        open_one()
    pending_reopen = []
    next_tick = time.monotonic()
    while not stop.is_set():
        now = time.monotonic()
        if now >= next_tick:
            next_tick = now + 0.2
            for s in list(conns):
                sent = conns[s]
                try:
                    s.send(HEAD[sent % len(HEAD):sent % len(HEAD) + 1])
                    conns[s] = sent + 1
                except OSError:
                    pass
            due = [t for t in pending_reopen if t <= now]
            pending_reopen = [t for t in pending_reopen if t > now]
            for _ in due:
                if open_one():
                    stats["reconnects"] += 1
        for key, _ in sel.select(timeout=0.05):
            s = key.fileobj
            try:
                data = s.recv(65536)
            except OSError:
                data = b""
            if not data:
                sel.unregister(s)
                s.close()
                del conns[s]
                pending_reopen.append(time.monotonic() + 1.0)
    stats["open"] = len(conns)
    for s in list(conns):
        s.close()


def one_request(port, path, token):
    start = time.monotonic()
    s = socket.socket()
    s.settimeout(5)
    try:
        s.bind(("127.0.0.2", 0))
        s.connect(("127.0.0.1", port))
        s.sendall(
            f"GET {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\nConnection: close\r\n\r\n".encode())
        answer = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            answer += chunk
        ok = answer.startswith(b"HTTP/1.1 200")
    except OSError:
        ok = False
    finally:
        s.close()
    return ok, (time.monotonic() - start) * 1000


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("port", type=int)
    parser.add_argument("--connections", type=int, default=1500)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--path", default="/v1/users/bob")
    parser.add_argument("--token", default="sandbox-alice")
    args = parser.parse_args()

    stop = threading.Event()
    stats = {"reconnects": 0, "open": 0}
    thread = threading.Thread(target=trickler, args=(args.port, args.connections, stop, stats), daemon=True)
    thread.start()
    time.sleep(2)  # every trickling connection opened and refused or held
    times, failed = [], 0
    until = time.monotonic() + args.seconds
    for _ in range(args.requests):
        if time.monotonic() > until:
            break
        ok, ms = one_request(args.port, args.path, args.token)
        if ok:
            times.append(ms)
        else:
            failed += 1
        time.sleep(0.02)
    stop.set()
    thread.join(10)
    times.sort()
    if not times:
        print(f"client nan nan nan {failed} {stats['open']} {stats['reconnects']}")
        return
    p50 = times[len(times) // 2]
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(f"client {p50:.2f} {p99:.2f} {times[-1]:.2f} {failed} {stats['open']} {stats['reconnects']}")


if __name__ == "__main__":
    main()
