"""Generate the sandbox's reference lists (countries, time zones, US states) in five languages.

Run from the repository root with the dev tools installed (``pip install -e .[dev]``)::

    .venv/bin/python tools/gen_reference_data.py

It writes ``countries.json``, ``timezones.json`` and ``us_states.json`` under
``src/portal_admin/sandbox/i18n/data/``. The sandbox reads those files at run time without any
of the libraries used here (Babel for localized territory and time-zone names, pycountry for
alpha-3 and numeric codes and official names, phonenumbers for calling codes).

Value scheme (8 digits, stable; see docs/sandbox-areas.md):

- countries: ``90010000 + ISO 3166-1 numeric code`` (China 156 -> 90010156);
- time zones: ``90020000 + n``, ``n`` taken from an append-only registry: a zone keeps the number
  it was first given (read back from the existing ``timezones.json``); new zones get the next
  free numbers in zone-id order;
- US states: ``90030000 + 26 * (first letter) + (second letter)`` of the ISO 3166-2 suffix,
  letters counted from A = 0 (US-CA -> 90030052).
"""

from __future__ import annotations

import gettext
import json
import sys
import zoneinfo
from datetime import datetime
from pathlib import Path
from typing import Any

import phonenumbers
import pycountry
from babel import Locale
from babel.core import get_global

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "src" / "portal_admin" / "sandbox" / "i18n" / "data"

#: Our language tags and the Babel locale and iso-codes gettext language for each.
LANGS: dict[str, tuple[str, str | None]] = {
    "en": ("en", None),
    "zh": ("zh_Hans", "zh_CN"),
    "zh-Hant": ("zh_Hant", "zh_TW"),
    "ja": ("ja", "ja"),
    "vi": ("vi", None),  # iso-codes' Vietnamese official names are archaic: not used
}

#: The year whose January and July give each zone's standard offset (the smaller of the two).
OFFSET_YEAR = 2026

#: Territories whose iso-codes official names are disputed: described by their short name.
NEUTRAL_NAMES = frozenset({"TW"})

COUNTRY_BASE = 90010000
TIMEZONE_BASE = 90020000
US_STATE_BASE = 90030000


def write(name: str, items: list[dict[str, Any]]) -> None:
    """Write compact JSON ``{"items": [...]}``, one item per line so that diffs stay readable."""
    lines = [json.dumps(item, ensure_ascii=False, separators=(",", ":")) for item in items]
    text = '{"items":[\n' + ",\n".join(lines) + "\n]}\n"
    (DATA / name).write_text(text, encoding="utf-8")
    print(f"wrote {name}: {len(items)} items")


# -- countries ----------------------------------------------------------------------------------


def countries() -> list[dict[str, Any]]:
    """Every ISO 3166-1 country, with localized names and official names."""
    locales = {lang: Locale.parse(babel) for lang, (babel, _) in LANGS.items()}
    official = {
        lang: gettext.translation("iso3166-1", pycountry.LOCALES_DIR, languages=[gt])
        for lang, (_, gt) in LANGS.items()
        if gt is not None
    }
    items = []
    for c in sorted(pycountry.countries, key=lambda c: c.alpha_2):
        label = {lang: str(loc.territories[c.alpha_2]) for lang, loc in locales.items()}
        description = dict(label)
        off = getattr(c, "official_name", None)
        if off and c.alpha_2 not in NEUTRAL_NAMES:
            description["en"] = off
            for lang, tr in official.items():
                description[lang] = tr.gettext(off)
        calling = phonenumbers.country_code_for_region(c.alpha_2)
        items.append(
            {
                "code": c.alpha_2,
                "value": COUNTRY_BASE + int(c.numeric),
                "alpha2Code": c.alpha_2,
                "alpha3Code": c.alpha_3,
                "numericCode": int(c.numeric),
                "phoneCode": f"+{calling}" if calling else "",
                "label": label,
                "description": description,
            }
        )
    return items


# -- time zones ---------------------------------------------------------------------------------


def standard_offset_minutes(zone: str) -> int:
    """The zone's standard (non-summer) offset in minutes."""
    tz = zoneinfo.ZoneInfo(zone)
    offsets = []
    for month in (1, 7):
        delta = datetime(OFFSET_YEAR, month, 15, 12, tzinfo=tz).utcoffset()
        assert delta is not None
        offsets.append(int(delta.total_seconds()) // 60)
    return min(offsets)


def utc_offset(minutes: int) -> tuple[str, str]:
    """``("UTC+5:30", "(UTC+05:30)")`` for 330 minutes."""
    sign = "-" if minutes < 0 else "+"
    h, m = divmod(abs(minutes), 60)
    short = f"UTC{sign}{h}" + (f":{m:02d}" if m else "")
    return short, f"(UTC{sign}{h:02d}:{m:02d})"


def zone_city(loc: Locale, zone: str, aliases: dict[str, list[str]]) -> str | None:
    """The localized exemplar city of ``zone`` from CLDR (which keys some zones by old ids)."""
    for key in (zone, *aliases.get(zone, ())):
        info = loc.time_zones.get(key)
        if info is not None and info.get("city"):
            return str(info["city"])
    return None


def zone_description(loc: Locale, zone: str, aliases: dict[str, list[str]]) -> str | None:
    """The localized generic long name of the zone's metazone, e.g. "China Time"."""
    meta = None
    for key in (zone, *aliases.get(zone, ())):
        found = get_global("meta_zones").get(key)
        if isinstance(found, str):
            meta = found
            break
    if meta is None:
        return None
    names = loc.meta_zones.get(meta, {}).get("long", {})
    name = names.get("generic") or names.get("standard")
    return str(name) if name else None


def timezones() -> list[dict[str, Any]]:
    """Canonical IANA zones (CLDR's set, plus UTC) with standard offsets and localized names."""
    territories = get_global("zone_territories")
    aliases: dict[str, list[str]] = {}
    for alias, canonical in get_global("zone_aliases").items():
        aliases.setdefault(canonical, []).append(alias)
    available = zoneinfo.available_timezones()
    zones = sorted(z for z in territories if z in available and not z.startswith("Etc/"))
    zones.append("UTC")
    registry = previous_registry()
    next_n = max(registry.values(), default=0) + 1
    for zone in sorted(zones):
        if zone not in registry:
            registry[zone] = next_n
            next_n += 1
    locales = {lang: Locale.parse(babel) for lang, (babel, _) in LANGS.items()}
    utc_names = {
        "en": "Coordinated Universal Time",
        "zh": "协调世界时",
        "zh-Hant": "世界標準時間",
        "ja": "協定世界時",
        "vi": "Giờ Phối hợp Quốc tế",
    }
    items: list[dict[str, Any]] = []
    for zone in zones:
        minutes = standard_offset_minutes(zone)
        short, prefix = utc_offset(minutes)
        label: dict[str, str] = {}
        description: dict[str, str] = {}
        english_city = zone.rsplit("/", 1)[-1].replace("_", " ")
        for lang, loc in locales.items():
            if zone == "UTC":
                city, desc = "UTC", utc_names[lang]
            else:
                city = zone_city(loc, zone, aliases) or english_city
                generic = zone_description(loc, zone, aliases)
                country = territories.get(zone)
                place = str(loc.territories.get(country, "")) if country else ""
                desc = generic or (f"{place} ({city})" if place else city)
            label[lang] = f"{prefix} {city}"
            description[lang] = desc
        items.append(
            {
                "code": zone,
                "value": TIMEZONE_BASE + registry[zone],
                "zoneIdCode": zone,
                "utcOffset": short,
                "offsetMinutes": minutes,
                "label": label,
                "description": description,
            }
        )
    items.sort(key=lambda i: (int(i["offsetMinutes"]), str(i["label"]["en"])))
    for item in items:
        del item["offsetMinutes"]
    return items


def previous_registry() -> dict[str, int]:
    """Zone numbers already assigned, read back from the existing data file."""
    path = DATA / "timezones.json"
    if not path.is_file():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {i["zoneIdCode"]: i["value"] - TIMEZONE_BASE for i in data.get("items", [])}


# -- US states ----------------------------------------------------------------------------------

#: Names of the 50 states and DC in zh / zh-Hant / ja: the iso-codes translations have gaps and
#: errors here, so these are curated (Xinhua forms for zh, Taiwan forms for zh-Hant). Vietnamese
#: writes US state names in their English form. Territories take CLDR's names via Babel.
STATE_NAMES: dict[str, tuple[str, str, str]] = {
    "AL": ("亚拉巴马州", "阿拉巴馬州", "アラバマ州"),
    "AK": ("阿拉斯加州", "阿拉斯加州", "アラスカ州"),
    "AZ": ("亚利桑那州", "亞利桑那州", "アリゾナ州"),
    "AR": ("阿肯色州", "阿肯色州", "アーカンソー州"),
    "CA": ("加利福尼亚州", "加利福尼亞州", "カリフォルニア州"),
    "CO": ("科罗拉多州", "科羅拉多州", "コロラド州"),
    "CT": ("康涅狄格州", "康乃狄克州", "コネチカット州"),
    "DE": ("特拉华州", "德拉瓦州", "デラウェア州"),
    "FL": ("佛罗里达州", "佛羅里達州", "フロリダ州"),
    "GA": ("佐治亚州", "喬治亞州", "ジョージア州"),
    "HI": ("夏威夷州", "夏威夷州", "ハワイ州"),
    "ID": ("爱达荷州", "愛達荷州", "アイダホ州"),
    "IL": ("伊利诺伊州", "伊利諾州", "イリノイ州"),
    "IN": ("印第安纳州", "印第安納州", "インディアナ州"),
    "IA": ("艾奥瓦州", "愛荷華州", "アイオワ州"),
    "KS": ("堪萨斯州", "堪薩斯州", "カンザス州"),
    "KY": ("肯塔基州", "肯塔基州", "ケンタッキー州"),
    "LA": ("路易斯安那州", "路易斯安那州", "ルイジアナ州"),
    "ME": ("缅因州", "緬因州", "メイン州"),
    "MD": ("马里兰州", "馬里蘭州", "メリーランド州"),
    "MA": ("马萨诸塞州", "麻薩諸塞州", "マサチューセッツ州"),
    "MI": ("密歇根州", "密西根州", "ミシガン州"),
    "MN": ("明尼苏达州", "明尼蘇達州", "ミネソタ州"),
    "MS": ("密西西比州", "密西西比州", "ミシシッピ州"),
    "MO": ("密苏里州", "密蘇里州", "ミズーリ州"),
    "MT": ("蒙大拿州", "蒙大拿州", "モンタナ州"),
    "NE": ("内布拉斯加州", "內布拉斯加州", "ネブラスカ州"),
    "NV": ("内华达州", "內華達州", "ネバダ州"),
    "NH": ("新罕布什尔州", "新罕布夏州", "ニューハンプシャー州"),
    "NJ": ("新泽西州", "新澤西州", "ニュージャージー州"),
    "NM": ("新墨西哥州", "新墨西哥州", "ニューメキシコ州"),
    "NY": ("纽约州", "紐約州", "ニューヨーク州"),
    "NC": ("北卡罗来纳州", "北卡羅來納州", "ノースカロライナ州"),
    "ND": ("北达科他州", "北達科他州", "ノースダコタ州"),
    "OH": ("俄亥俄州", "俄亥俄州", "オハイオ州"),
    "OK": ("俄克拉何马州", "奧克拉荷馬州", "オクラホマ州"),
    "OR": ("俄勒冈州", "俄勒岡州", "オレゴン州"),
    "PA": ("宾夕法尼亚州", "賓夕法尼亞州", "ペンシルベニア州"),
    "RI": ("罗得岛州", "羅德島州", "ロードアイランド州"),
    "SC": ("南卡罗来纳州", "南卡羅來納州", "サウスカロライナ州"),
    "SD": ("南达科他州", "南達科他州", "サウスダコタ州"),
    "TN": ("田纳西州", "田納西州", "テネシー州"),
    "TX": ("得克萨斯州", "德克薩斯州", "テキサス州"),
    "UT": ("犹他州", "猶他州", "ユタ州"),
    "VT": ("佛蒙特州", "佛蒙特州", "バーモント州"),
    "VA": ("弗吉尼亚州", "維吉尼亞州", "バージニア州"),
    "WA": ("华盛顿州", "華盛頓州", "ワシントン州"),
    "WV": ("西弗吉尼亚州", "西維吉尼亞州", "ウェストバージニア州"),
    "WI": ("威斯康星州", "威斯康辛州", "ウィスコンシン州"),
    "WY": ("怀俄明州", "懷俄明州", "ワイオミング州"),
    "DC": ("哥伦比亚特区", "哥倫比亞特區", "コロンビア特別区"),
}

KIND_TEXTS: dict[str, dict[str, str]] = {
    "state": {
        "en": "State of the United States",
        "zh": "美国的州",
        "zh-Hant": "美國的州",
        "ja": "アメリカ合衆国の州",
        "vi": "Tiểu bang của Hoa Kỳ",
    },
    "district": {
        "en": "Federal district of the United States",
        "zh": "美国联邦直辖特区",
        "zh-Hant": "美國聯邦直轄特區",
        "ja": "アメリカ合衆国の連邦直轄区",
        "vi": "Đặc khu liên bang của Hoa Kỳ",
    },
    "territory": {
        "en": "Outlying area of the United States",
        "zh": "美国海外领地",
        "zh-Hant": "美國海外領地",
        "ja": "アメリカ合衆国の海外領土",
        "vi": "Vùng lãnh thổ hải ngoại của Hoa Kỳ",
    },
}


def state_value(suffix: str) -> int:
    """The stable value of an ISO 3166-2 US subdivision suffix (two letters)."""
    return US_STATE_BASE + 26 * (ord(suffix[0]) - 65) + (ord(suffix[1]) - 65)


def us_states() -> list[dict[str, Any]]:
    """The 50 states, DC and the outlying areas (ISO 3166-2:US)."""
    locales = {lang: Locale.parse(babel) for lang, (babel, _) in LANGS.items()}
    items = []
    subdivisions = pycountry.subdivisions.get(country_code="US")  # type: ignore[no-untyped-call]
    for sub in sorted(subdivisions, key=lambda s: s.code):
        suffix = sub.code.split("-", 1)[1]
        if suffix in STATE_NAMES:
            zh, hant, ja = STATE_NAMES[suffix]
            english = "District of Columbia" if suffix == "DC" else sub.name
            label = {"en": english, "zh": zh, "zh-Hant": hant, "ja": ja, "vi": english}
            if suffix == "DC":
                label["vi"] = "Đặc khu Columbia"
            kind = "district" if suffix == "DC" else "state"
        else:
            label = {lang: str(loc.territories[suffix]) for lang, loc in locales.items()}
            kind = "territory"
        items.append(
            {
                "code": suffix,
                "value": state_value(suffix),
                "isoCode": sub.code,
                "label": label,
                "description": KIND_TEXTS[kind],
            }
        )
    return items


def main() -> int:
    """Generate all three files."""
    DATA.mkdir(parents=True, exist_ok=True)
    for name, build in (
        ("countries.json", countries),
        ("timezones.json", timezones),
        ("us_states.json", us_states),
    ):
        items = build()
        values = [i["value"] for i in items]
        assert len(set(values)) == len(values), f"duplicate values in {name}"
        assert all(10_000_000 <= v <= 99_999_999 for v in values), name
        write(name, items)
    return 0


if __name__ == "__main__":
    sys.exit(main())
