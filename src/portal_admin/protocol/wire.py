"""An answer's JSON object from a model's fields, as a server sends it."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel


def sent(model: type[BaseModel], values: dict[str, Any]) -> dict[str, Any]:
    """``values`` (every field of ``model``, by attribute name) under the spec's names. Not
    validated: the values are the server's own. A missing or unknown name is a programming
    error (so an answer never lacks a field its model, and so the OpenAPI document, names)."""
    fields = model.model_fields
    if values.keys() != fields.keys():
        unknown = sorted(values.keys() - fields.keys())
        missing = sorted(fields.keys() - values.keys())
        raise TypeError(f"{model.__name__}: unknown {unknown}, missing {missing}")
    return {fields[name].alias or name: value for name, value in values.items()}
