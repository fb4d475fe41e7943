"""One graph's process of bench_planner.c, the planner benchmarks' driver (scripts/bench-planner.sh,
scripts/planner-judge.py --count): requests in, one JSON line each out (bench_planner.c says which)."""
import json
import select
import subprocess
import sys


class Driver:
    def __init__(self, binary, graph_file, device, trials=1):
        self.graph = graph_file
        self.cmd = [binary, graph_file, device, str(trials)]
        self.start()

    def start(self):
        self.p = subprocess.Popen(self.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def ask(self, line, limit):
        """The reply, or None where none came within limit seconds (the process is then started again)."""
        try:
            self.p.stdin.write(line + "\n")
            self.p.stdin.flush()
        except BrokenPipeError:
            sys.exit("bench_planner on %s ended (exit %s)" % (self.graph, self.p.wait()))
        ready, _, _ = select.select([self.p.stdout], [], [], limit)
        reply = self.p.stdout.readline() if ready else ""
        if not reply:
            self.close()
            self.start()
            return None
        return json.loads(reply)

    def close(self):
        self.p.kill()
        self.p.wait()
