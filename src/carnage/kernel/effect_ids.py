"""Effect ids as a small value type: what an effect is, which rule, and whose.

Every installed effect has an id (``perk:evasive:p1-car``, ``vehicle_rule:full_throttle:car1``,
``sponsor:rutherford:0``, ``ruleset:kart``): its handlers are registered under it, its memory is
kept under it, the effect journal and the event log record it. ``EffectId`` builds that text
from its parts and reads it back, so no rule splits an id apart by hand. The text form
(``str(eid)``) is exactly the colon form the journal, the log and saved games have always
held, so they keep their JSON byte for byte.
"""

from __future__ import annotations

from dataclasses import dataclass

SEP = ":"


@dataclass(frozen=True, slots=True)
class EffectId:
    """``kind:name[:subject[:detail]]``: ``kind`` is the rule family (``perk``, ``weapon``,
    ``sponsor``, ``ruleset``, ``scenario`` ...), ``name`` the rule's id, ``subject`` whose
    effect it is (a vehicle id, or a seat for a sponsor), ``detail`` a part of the effect that
    keeps handlers of its own (a sponsored perk of a sponsor, a temporary restriction)."""

    kind: str
    name: str
    subject: str | None = None
    detail: str | None = None

    def __post_init__(self) -> None:
        kind, name, subject, detail = self.kind, self.name, self.subject, self.detail
        if (type(kind) is str and kind and SEP not in kind
                and type(name) is str and name and SEP not in name
                and (subject is None or (type(subject) is str and subject and SEP not in subject))
                and (detail is None or (type(detail) is str and detail and subject is not None))):
            return  # the usual id, checked without building the parts (the same checks)
        for field_name, part, last in (("kind", self.kind, False), ("name", self.name, False),
                                       ("subject", self.subject, False),
                                       ("detail", self.detail, True)):
            if part is None:
                continue
            if not isinstance(part, str) or not part or (not last and SEP in part):
                raise ValueError(f"effect id: {field_name} {part!r} must be a non-empty "
                                 f"string{'' if last else ' without ' + repr(SEP)}")
        if self.detail is not None and self.subject is None:
            raise ValueError("effect id: a detail needs a subject")

    def __str__(self) -> str:
        parts = [self.kind, self.name]
        if self.subject is not None:
            parts.append(self.subject)
            if self.detail is not None:
                parts.append(self.detail)
        return SEP.join(parts)

    def part(self, detail: str) -> EffectId:
        """The id of a part of this effect (``sponsor:x:0`` -> ``sponsor:x:0:<detail>``)."""
        if self.detail is not None:
            return EffectId(self.kind, self.name, self.subject, f"{self.detail}{SEP}{detail}")
        return EffectId(self.kind, self.name, self.subject, detail)

    @classmethod
    def parse(cls, text: str) -> EffectId:
        """The id whose text is ``text`` (``str(EffectId.parse(t)) == t``); ``ValueError``
        naming it if it is not one (fewer than two parts, an empty part)."""
        parts = text.split(SEP, 3)
        if len(parts) < 2 or not all(parts):
            raise ValueError(f"not an effect id: {text!r} (expected kind:name[:subject])")
        return cls(*parts)

    @classmethod
    def read(cls, text: str) -> EffectId | None:
        """``parse``, or None for an id that is not of the ``kind:name`` form (a dispatcher's
        own name such as ``perks@flip``)."""
        try:
            return cls.parse(text)
        except ValueError:
            return None
