"""Ctrl-C in Jupyter: interrupting a kernel stops a long solve with
KeyboardInterrupt (the kernel lives on), as the interrupt button does."""

import time


#: Run in the kernel at its start: `_abort_queues` (ipykernel's start of
#: aborting the queued requests after an error) waits 0.2 s first.
_SLOW_ABORT = (
    "import time as _t; _k = get_ipython().kernel; _o = _k._abort_queues; "
    "_k._abort_queues = lambda *a, **kw: (_t.sleep(0.2), _o(*a, **kw))[1]"
)


def test_interrupting_the_kernel_stops_a_long_solve():
    from jupyter_client.manager import start_new_kernel

    km, kc = start_new_kernel(
        kernel_name="python3",
        startup_timeout=120,
        # The kernel's main thread held up 0.2 s between sending a cell's
        # error reply and starting to abort its queue, as a thread
        # preempted on a loaded machine is (the race that failed 1 run in
        # 4 on CI, made certain): a next cell sent as soon as the reply
        # came would arrive inside that window and come back `aborted`.
        extra_arguments=["--IPKernelApp.exec_lines=" + _SLOW_ABORT],
    )
    try:
        # The delay is in place (an ipykernel without `_abort_queues` would
        # run without it, and this test would not test the race).
        ready = kc.execute_interactive("assert _k._abort_queues.__name__ == '<lambda>'", timeout=60)
        assert ready["content"]["status"] == "ok", ready["content"]
        kc.execute_interactive(
            "import random, gamesweep as gs\n"
            "rng = random.Random(7)\n"
            "g = gs.to_graph6([(u, v) for u in range(60) for v in range(u + 1, 60) if rng.random() < 0.06])\n",
            timeout=60,
        )
        # Unlimited budget: without the interrupt it would run for hours.
        msg_id = kc.execute("gs.uvg.values(g, budget=0)")
        time.sleep(1.0)
        t0 = time.monotonic()
        km.interrupt_kernel()
        while True:
            reply = kc.get_shell_msg(timeout=30)
            if reply["parent_header"].get("msg_id") == msg_id:
                break
        took = time.monotonic() - t0
        assert reply["content"]["status"] == "error", reply["content"]
        assert reply["content"]["ename"] == "KeyboardInterrupt", reply["content"]
        assert took < 5.0, f"the interrupt took {took:.1f} s"
        # The next cell goes once the kernel is done with the interrupted
        # one (its `idle` status, published after the abort has begun and
        # its end is queued), as a user's next cell does. Sent as soon as
        # the reply came (1 run in 4 on CI; 5 in 5 with the delay above),
        # it arrived before the kernel began aborting its queue after the
        # error and came back `aborted`.
        _wait_idle(kc, msg_id)
        # The kernel goes on: the next cell runs.
        out = kc.execute_interactive("print(gs.uvg.values('Dhc'))", timeout=60)
        assert out["content"]["status"] == "ok"
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def _wait_idle(kc, msg_id, timeout=30.0):
    """Wait for the kernel's `idle` status on IOPub for request `msg_id`
    (published after the request's reply and the kernel's clean-up)."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"no idle status for {msg_id} in {timeout} s"
        msg = kc.get_iopub_msg(timeout=left)
        if (
            msg["parent_header"].get("msg_id") == msg_id
            and msg["msg_type"] == "status"
            and msg["content"]["execution_state"] == "idle"
        ):
            return
