#!/usr/bin/env python3
"""raw-mcp-timing: times a seed-001-compatible MCP server over stdio without an MCP SDK.

Usage: python3 scripts/raw-mcp-timing.py REPS -- SERVER COMMAND...

Each repetition spawns the server, sends initialize, then listDocuments twice, a tag-filtered
listDocuments and three searchDocuments calls (the side-by-side kit's queries on a library made by
../shared/bench/gen_library.py), reading each answer as one line without parsing it: what is left
is the server's own time. Prints one JSON line per repetition: milliseconds per step, answer
sizes and the server's peak RSS (VmHWM). Lines that are not the awaited answer (a server's own
chatter on stdout) are skipped.
"""
import json
import os
import subprocess
import sys
import time
args = sys.argv[sys.argv.index('--')+1:]
def call(p, msg):
    t = time.perf_counter()
    p.stdin.write((json.dumps(msg) + "\n").encode()); p.stdin.flush()
    if 'id' not in msg: return 0, 0
    while True:
        line = p.stdout.readline()
        key = b'"id":%d' % msg['id']
        if not line or (line.startswith(b'{') and (key in line[:200] or key in line[-60:])):
            break
    return (time.perf_counter() - t) * 1000, len(line)
for rep in range(int(sys.argv[1])):
    t = time.perf_counter()
    p = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=1 << 20)
    init, _ = call(p, {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}})
    init = (time.perf_counter() - t) * 1000
    call(p, {"jsonrpc":"2.0","method":"notifications/initialized"})
    out = {"init": round(init, 1)}
    for i, (name, tool, a) in enumerate([("list_cold", "listDocuments", {}), ("list_warm", "listDocuments", {}), ("tags", "listDocuments", {"tags": ["networking"]}), ("rare", "searchDocuments", {"query": "quillwort"}), ("common", "searchDocuments", {"query": "the"}), ("regex", "searchDocuments", {"query": "\\b(rotor|stator|turbine)\\b[^.]{0,40}\\b(voltage|current)\\b", "mode": "regex"})]):
        ms, n = call(p, {"jsonrpc":"2.0","id":10+i,"method":"tools/call","params":{"name":tool,"arguments":a}})
        out[name] = round(ms, 1); out[name + "_bytes"] = n
    st = open(f"/proc/{p.pid}/status").read()
    out["VmHWM_MiB"] = round(int([l for l in st.splitlines() if l.startswith("VmHWM")][0].split()[1]) / 1024, 1)
    p.stdin.close(); p.wait()
    print(json.dumps(out))
