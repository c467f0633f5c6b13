"""What can go wrong when talking to an agent.

AgentError
├── AgentUnreachable     connection refused, DNS, reset
├── AgentTimeout         no answer within the timeout
├── AgentBadResponse     not JSON, wrong shape, unexpected status (garbage)
├── AgentRejectedInput   the agent answered 400/422 to our input
└── AgentJobNotFound     /status answered 404 for the job
"""

from __future__ import annotations


class AgentError(Exception):
    retryable = True

    def __init__(self, message: str, *, status_code: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.status_code = status_code


class AgentUnreachable(AgentError):
    pass


class AgentTimeout(AgentError):
    pass


class AgentBadResponse(AgentError):
    pass


class AgentRejectedInput(AgentError):
    retryable = False


class AgentJobNotFound(AgentError):
    pass
