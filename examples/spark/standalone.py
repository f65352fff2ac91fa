"""A Spark standalone cluster on the loopback interface, for the tests and the benchmark.

A master and workers started from the pyspark package's own launcher
(`bin/spark-class org.apache.spark.deploy.master.Master`, `... Worker`; the
wheel has no start-master.sh or start-worker.sh), each in a process group
of its own so that stopping it also stops the executors and Python workers
it started. Everything listens on 127.0.0.1 and is stopped when the `with`
block ends, however it ends:

    with Cluster(workdir, workers=2, cores=1) as cluster:
        cluster.submit(["links_job.py", "--output", ...], timeout=300)

Every wait is bounded in time; a daemon that stops early or a deadline that
passes raises ClusterError with the end of the daemon's log. A SIGTERM to
this process, or its exit, stops the cluster too (a SIGKILL cannot).
"""

import atexit
import os
import re
import signal
import subprocess
import sys
import threading
import time


class ClusterError(RuntimeError):
    pass


def spark_home():
    """SPARK_HOME, else the installed pyspark package (which holds bin/
    and jars/)."""
    if os.environ.get("SPARK_HOME"):
        return os.environ["SPARK_HOME"]
    import pyspark

    return os.path.dirname(os.path.abspath(pyspark.__file__))


def stop_group(proc, grace=15.0):
    """Stops a process started with start_new_session=True and everything
    in its process group (a worker's executors, their Python workers):
    SIGTERM, then SIGKILL for whatever is left after `grace` seconds."""
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.wait(timeout=10.0)
    except subprocess.TimeoutExpired:
        pass


def run_bounded(cmd, timeout, env=None, cwd=None):
    """Runs `cmd` in a process group of its own and returns (returncode,
    stdout, stderr); when `timeout` seconds pass, the whole group is
    killed and subprocess.TimeoutExpired raised."""
    proc = subprocess.Popen(
        cmd, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        stop_group(proc, grace=5.0)
        proc.communicate()
        raise
    finally:
        if proc.poll() is None:
            stop_group(proc, grace=5.0)
    return proc.returncode, out, err


class Cluster:
    """A standalone master and `workers` workers of `cores` cores each."""

    def __init__(self, workdir, workers=2, cores=1, memory="1g", env=None, timeout=120.0):
        self.workdir = os.path.abspath(workdir)
        self.workers = workers
        self.cores = cores
        self.memory = memory
        self.timeout = timeout
        self.home = spark_home()
        self.procs = []
        self.master_url = None
        self._previous_sigterm = None
        base = dict(os.environ if env is None else env)
        base.update(
            SPARK_HOME=self.home,
            SPARK_LOCAL_IP="127.0.0.1",
            SPARK_CONF_DIR=os.path.join(self.workdir, "conf"),
            SPARK_WORKER_DIR=os.path.join(self.workdir, "work"),
            SPARK_LOCAL_DIRS=os.path.join(self.workdir, "local"),
            SPARK_DAEMON_MEMORY=base.get("SPARK_DAEMON_MEMORY", "256m"),
        )
        self.env = base

    def _log(self, name):
        return os.path.join(self.workdir, "logs", f"{name}.log")

    def _start(self, name, main_class, *args):
        with open(self._log(name), "wb") as log:
            proc = subprocess.Popen(
                [os.path.join(self.home, "bin", "spark-class"), main_class, *args],
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.procs.append((name, proc))
        return proc

    def _wait_for(self, name, proc, pattern, count, deadline):
        """The matches of `pattern` in the daemon's log once there are
        `count` of them."""
        regex = re.compile(pattern)
        while True:
            with open(self._log(name), encoding="utf-8", errors="replace") as f:
                found = regex.findall(f.read())
            if len(found) >= count:
                return found
            if proc.poll() is not None:
                raise ClusterError(f"the Spark {name} stopped (exit {proc.returncode}):\n{self.log_tail(name)}")
            if time.monotonic() > deadline:
                raise ClusterError(f"the Spark {name} was not ready in {self.timeout:.0f} s:\n{self.log_tail(name)}")
            time.sleep(0.2)

    def log_tail(self, name, lines=40):
        try:
            with open(self._log(name), encoding="utf-8", errors="replace") as f:
                return "".join(f.readlines()[-lines:])
        except OSError:
            return ""

    def _on_sigterm(self, signum, frame):
        # A SIGTERM to this process (a CI timeout) unwinds through the
        # `with` block, which stops the daemons; they run in sessions of
        # their own, so nothing else would.
        raise SystemExit(128 + signum)

    def start(self):
        atexit.register(self.stop)
        if threading.current_thread() is threading.main_thread():
            self._previous_sigterm = signal.signal(signal.SIGTERM, self._on_sigterm)
        for d in ("conf", "work", "local", "logs"):
            os.makedirs(os.path.join(self.workdir, d), exist_ok=True)
        deadline = time.monotonic() + self.timeout
        # Port 0: the master takes a free port and logs it.
        master = self._start(
            "master",
            "org.apache.spark.deploy.master.Master",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--webui-port",
            "0",
        )
        (self.master_url,) = self._wait_for("master", master, r"Starting Spark master at (spark://\S+)", 1, deadline)
        for i in range(self.workers):
            self._start(
                f"worker-{i}",
                "org.apache.spark.deploy.worker.Worker",
                "--host",
                "127.0.0.1",
                "--cores",
                str(self.cores),
                "--memory",
                self.memory,
                "--webui-port",
                "0",
                self.master_url,
            )
        self._wait_for("master", master, r"Registering worker", self.workers, deadline)
        return self

    def stop(self):
        # Workers first (each stops its executors), then the master.
        for _, proc in reversed(self.procs):
            stop_group(proc)
        self.procs = []
        atexit.unregister(self.stop)
        if self._previous_sigterm is not None:
            signal.signal(signal.SIGTERM, self._previous_sigterm)
            self._previous_sigterm = None

    def __enter__(self):
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *exc):
        self.stop()
        return False

    def submit(self, app_args, conf=(), env=None, timeout=600.0, submit_args=(), cwd=None):
        """spark-submit APP ARGS... against this cluster, client mode, from
        `cwd`; the Python of this process drives the job unless `env` says
        otherwise. Returns (returncode, stdout, stderr)."""
        env = dict(self.env if env is None else env)
        env.setdefault("PYSPARK_PYTHON", sys.executable)
        env.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
        cmd = [os.path.join(self.home, "bin", "spark-submit"), "--master", self.master_url, *submit_args]
        cmd += [
            "--conf",
            "spark.driver.host=127.0.0.1",
            "--conf",
            "spark.driver.bindAddress=127.0.0.1",
            "--conf",
            "spark.ui.enabled=false",
        ]
        for k, v in conf:
            cmd += ["--conf", f"{k}={v}"]
        return run_bounded(cmd + list(app_args), timeout, env=env, cwd=cwd)
