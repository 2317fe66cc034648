"""Name material for generated accounts: several scripts and languages.

Each part is (display form, ASCII form for the email address).
"""

from __future__ import annotations

from dataclasses import dataclass

Part = tuple[str, str]


@dataclass(frozen=True, slots=True)
class Culture:
    """How names of one language are formed, and the account defaults that go with them."""

    language: str
    country: str
    timezone: str
    phone_prefix: str
    given: tuple[Part, ...]
    family: tuple[Part, ...]
    family_first: bool = False
    joiner: str = " "


def _same(*names: str) -> tuple[Part, ...]:
    return tuple((n, n.lower()) for n in names)


def _pairs(displays: str, asciis: str) -> tuple[Part, ...]:
    d, a = displays.split(), asciis.split()
    assert len(d) == len(a)
    return tuple(zip(d, a, strict=True))


CULTURES: tuple[Culture, ...] = (
    Culture(
        "en",
        "US",
        "America/New_York",
        "+1-555-",
        _same(
            "James",
            "Olivia",
            "Liam",
            "Emma",
            "Noah",
            "Ava",
            "William",
            "Sophia",
            "Benjamin",
            "Isabella",
            "Lucas",
            "Mia",
            "Henry",
            "Charlotte",
            "Alexander",
            "Amelia",
            "Grace",
        ),
        _same(
            "Smith",
            "Johnson",
            "Williams",
            "Brown",
            "Jones",
            "Garcia",
            "Miller",
            "Davis",
            "Wilson",
            "Anderson",
            "Taylor",
            "Thomas",
            "Moore",
            "Martin",
            "Jackson",
            "Clark",
        ),
    ),
    Culture(
        "zh",
        "CN",
        "Asia/Shanghai",
        "+86-138-",
        _pairs(
            "伟 芳 娜 秀英 敏 静 丽 强 磊 军 洋 勇 艳 杰 娟 涛",
            "wei fang na xiuying min jing li qiang lei jun yang yong yan jie juan tao",
        ),
        _pairs(
            "王 李 张 刘 陈 杨 黄 赵 吴 周 徐 孙 马 朱 胡 郭",
            "wang li zhang liu chen yang huang zhao wu zhou xu sun ma zhu hu guo",
        ),
        family_first=True,
        joiner="",
    ),
    Culture(
        "zh-Hant",
        "TW",
        "Asia/Taipei",
        "+886-912-",
        _pairs(
            "志明 淑芬 家豪 雅婷 冠宇 怡君 建宏 美玲 俊傑 佳穎",
            "chihming shufen chiahao yating kuanyu yichun chienhung meiling chunchieh chiaying",
        ),
        _pairs("陳 林 黃 張 李 王 吳 劉 蔡 楊", "chen lin huang chang lee wang wu liu tsai yang"),
        family_first=True,
        joiner="",
    ),
    Culture(
        "ja",
        "JP",
        "Asia/Tokyo",
        "+81-90-",
        _pairs(
            "花子 太郎 陽翔 結衣 蓮 葵 大翔 さくら 悠真 美咲",
            "hanako taro haruto yui ren aoi hiroto sakura yuma misaki",
        ),
        _pairs(
            "佐藤 鈴木 高橋 田中 伊藤 渡辺 山本 中村 小林 加藤",
            "sato suzuki takahashi tanaka ito watanabe yamamoto nakamura kobayashi kato",
        ),
        family_first=True,
    ),
    Culture(
        "vi",
        "VN",
        "Asia/Ho_Chi_Minh",
        "+84-90-",
        _pairs(
            "An Bình Châu Dũng Hà Hương Khánh Linh Nam Phương Quân Thảo",
            "an binh chau dung ha huong khanh linh nam phuong quan thao",
        ),
        _pairs(
            "Nguyễn Trần Lê Phạm Hoàng Huỳnh Phan Vũ Võ Đặng",
            "nguyen tran le pham hoang huynh phan vu vo dang",
        ),
        family_first=True,
    ),
    Culture(
        "es",
        "ES",
        "Europe/Madrid",
        "+34-600-",
        _pairs(
            "José María Lucía Álvaro Sofía Martín Inés Andrés",
            "jose maria lucia alvaro sofia martin ines andres",
        ),
        _pairs(
            "García Fernández López Martínez Sánchez Pérez Gómez Muñoz",
            "garcia fernandez lopez martinez sanchez perez gomez munoz",
        ),
    ),
    Culture(
        "fr",
        "FR",
        "Europe/Paris",
        "+33-6-",
        _pairs(
            "François Amélie Hélène Théo Zoé Jérôme Chloé Étienne",
            "francois amelie helene theo zoe jerome chloe etienne",
        ),
        _pairs(
            "Dupont Lefèvre Moreau Girard Bélanger Fournier Rousseau Lemaître",
            "dupont lefevre moreau girard belanger fournier rousseau lemaitre",
        ),
    ),
    Culture(
        "de",
        "DE",
        "Europe/Berlin",
        "+49-151-",
        _pairs(
            "Jürgen Jörg Björn Lena Maximilian Anna Lukas Sophie",
            "juergen joerg bjoern lena maximilian anna lukas sophie",
        ),
        _pairs(
            "Müller Schmidt Schröder Weiß Köhler Becker Hoffmann Groß",
            "mueller schmidt schroeder weiss koehler becker hoffmann gross",
        ),
    ),
    Culture(
        "ru",
        "RU",
        "Europe/Moscow",
        "+7-916-",
        _pairs(
            "Иван Анна Дмитрий Ольга Сергей Наталья Алексей Мария",
            "ivan anna dmitry olga sergey natalia alexey maria",
        ),
        _pairs(
            "Петров Смирнов Иванов Кузнецов Попов Соколов Лебедев Козлов",
            "petrov smirnov ivanov kuznetsov popov sokolov lebedev kozlov",
        ),
    ),
    Culture(
        "ko",
        "KR",
        "Asia/Seoul",
        "+82-10-",
        _pairs(
            "민준 서연 지호 하은 도윤 수아 예준 지우",
            "minjun seoyeon jiho haeun doyun sua yejun jiwoo",
        ),
        _pairs("김 이 박 최 정 강 조 윤", "kim lee park choi jung kang cho yoon"),
        family_first=True,
        joiner="",
    ),
    Culture(
        "ar",
        "AE",
        "Asia/Dubai",
        "+971-50-",
        _pairs("محمد فاطمة أحمد مريم علي نور", "mohammed fatima ahmed maryam ali noor"),
        _pairs("العلي الحسن المنصور الخطيب", "alali alhassan almansour alkhatib"),
    ),
)

DOMAINS: tuple[str, ...] = ("example.com", "example.org", "example.net", "mail.test", "corp.test")
