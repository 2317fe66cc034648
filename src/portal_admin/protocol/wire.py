"""An answer's JSON object from a model's fields, as a server sends it; a model's JSON Schema
in one piece."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, TypeAdapter


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


def json_schema_of(tp: Any, mode: str = "validation") -> dict[str, Any]:
    """The JSON Schema of type ``tp`` under the wire's names, its definitions inlined (to
    embed in another schema or document)."""
    schema = TypeAdapter(tp).json_schema(mode=mode, by_alias=True)  # type: ignore[arg-type]
    defs = schema.pop("$defs", {})

    def resolve(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                return resolve(defs[ref.removeprefix("#/$defs/")])
            return {key: resolve(value) for key, value in node.items()}
        if isinstance(node, list):
            return [resolve(value) for value in node]
        return node

    resolved: dict[str, Any] = resolve(schema)
    return resolved
