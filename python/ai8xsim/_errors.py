"""The package's exceptions."""


def command_line_text(command, messages):
    """`messages` as the command line prints them on stderr: each message
    prefixed "ai8xsim COMMAND: ", a compiler's output (which ends with its
    newline, app/run_context.h) as it is."""
    out = []
    for m in messages:
        out.append(m.rstrip("\n") if m.endswith("\n") else "ai8xsim %s: %s" % (command, m))
    return "\n".join(out)


class Error(RuntimeError):
    """A command could not do its work. `messages` are the lines the command
    line prints on stderr (without their "ai8xsim COMMAND: " prefix),
    `exit_code` its exit code; str() is the text the command line prints."""

    def __init__(self, command, messages, exit_code):
        self.command = command
        self.messages = list(messages)
        self.exit_code = exit_code
        text = command_line_text(command, self.messages) or "ai8xsim %s: exit code %d" % (command, exit_code)
        super().__init__(text)


class RunError(Error):
    """`ai8xsim.run` could not start the run: a missing or malformed folder,
    a bad option, a device description that does not load, firmware that
    does not build (the command line's exit code 2)."""

    def __init__(self, messages, exit_code=2):
        super().__init__("run", messages, exit_code)
