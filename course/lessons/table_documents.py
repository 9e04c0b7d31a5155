"""Documents with tables for assignment 4 ("Table rescue"), and questions with known evidence.

``TRAVEL_HANDBOOK`` is a policy variant in GitHub form: the lesson's per-diem data with leading
pipes and a delimiter row, in the middle of the document; a large hotel-caps table (36 cities)
that cannot fit one chunk; prose lines that contain a pipe but are not tables; and code fences
whose lines contain pipes but are not tables either.

The tables are also given row by row (``PER_DIEM_ROWS``, ``HOTEL_ROWS``: header first, the
delimiter row, if any, second), so a widget can find rows in chunks without having to detect
table lines itself: detecting them is the student's job.
"""
from .paragraph_sets import Question

# The lesson's table in lesson form (documents.PER_DIEM_SECTION): no leading pipes, no delimiter.
LESSON_PER_DIEM_ROWS = (
    "Region | Breakfast | Dinner",
    "US | 20 | 50",
    "EU | 15 | 45",
    "APAC | 12 | 40",
)

# The same data in GitHub form.
PER_DIEM_ROWS = (
    "| Region | Breakfast | Dinner |",
    "|---|---:|---:|",
    "| US | 20 | 50 |",
    "| EU | 15 | 45 |",
    "| APAC | 12 | 40 |",
)
PER_DIEM_TABLE = "\n".join(PER_DIEM_ROWS)

_HOTELS = (
    ("New York", "United States", "US", 320), ("San Francisco", "United States", "US", 300),
    ("Boston", "United States", "US", 280), ("Chicago", "United States", "US", 250),
    ("Seattle", "United States", "US", 240), ("Austin", "United States", "US", 210),
    ("Denver", "United States", "US", 190), ("Atlanta", "United States", "US", 180),
    ("Toronto", "Canada", "US", 220), ("Mexico City", "Mexico", "US", 160),
    ("London", "United Kingdom", "EU", 290), ("Paris", "France", "EU", 260),
    ("Zurich", "Switzerland", "EU", 280), ("Amsterdam", "Netherlands", "EU", 240),
    ("Berlin", "Germany", "EU", 200), ("Munich", "Germany", "EU", 210),
    ("Dublin", "Ireland", "EU", 220), ("Madrid", "Spain", "EU", 180),
    ("Barcelona", "Spain", "EU", 190), ("Lisbon", "Portugal", "EU", 170),
    ("Milan", "Italy", "EU", 200), ("Stockholm", "Sweden", "EU", 210),
    ("Warsaw", "Poland", "EU", 150), ("Prague", "Czechia", "EU", 140),
    ("Tokyo", "Japan", "APAC", 260), ("Singapore", "Singapore", "APAC", 280),
    ("Hong Kong", "China", "APAC", 270), ("Sydney", "Australia", "APAC", 250),
    ("Melbourne", "Australia", "APAC", 230), ("Seoul", "South Korea", "APAC", 220),
    ("Shanghai", "China", "APAC", 210), ("Bangalore", "India", "APAC", 140),
    ("Mumbai", "India", "APAC", 160), ("Jakarta", "Indonesia", "APAC", 130),
    ("Kuala Lumpur", "Malaysia", "APAC", 140), ("Auckland", "New Zealand", "APAC", 200),
)

HOTEL_ROWS = (
    "| City | Country | Region | Nightly cap (USD) |",
    "|---|---|:---:|---:|",
    *(f"| {city} | {country} | {region} | {cap} |" for city, country, region, cap in _HOTELS),
)
HOTEL_TABLE = "\n".join(HOTEL_ROWS)

TRAVEL_HANDBOOK = f"""# Nimbus Analytics — Travel Handbook

## Booking
All travel must be booked through the Navan portal. Economy class is
standard for flights under 6 hours.
Every booking carries a cost centre written DEPT|CODE, for example FIN|204.

## Per-diem rates
Daily meal allowances in USD, paid on top of the hotel cap. Lunch is not
covered: it is part of your salary.

{PER_DIEM_TABLE}

Claim the per diem for each night away; the day you fly home counts as a day.

## Hotel caps
Nightly hotel caps by city, in USD before taxes. A city that is not listed
uses the cap of the nearest listed city in its region.

{HOTEL_TABLE}

To see how many listed cities each region has, run the one-liner below.

```bash
grep '^| ' hotel_caps.md | cut -d'|' -f4 | sort | uniq -c
```

## Proposing a new city
Add one row to the hotel-caps table and open a pull request. Your shell
history is not evidence: paste the quote, not `history | tail`.

```markdown
| <city> | <country> | <region> | <cap> |
```

A reviewer from Finance approves the cap before it applies.
"""

# Lines of TRAVEL_HANDBOOK that hold a pipe but are not table lines, and lines that are.
PIPE_PROSE_LINES = (
    "Every booking carries a cost centre written DEPT|CODE, for example FIN|204.",
    "history is not evidence: paste the quote, not `history | tail`.",
)
FENCE_PIPE_LINES = (
    "grep '^| ' hotel_caps.md | cut -d'|' -f4 | sort | uniq -c",
    "| <city> | <country> | <region> | <cap> |",
)

PER_DIEM_QUESTION = Question("APAC dinner per diem", ("| Region | Breakfast | Dinner |", "| APAC | 12 | 40 |"))

TABLE_QUESTIONS = (
    PER_DIEM_QUESTION,
    Question("EU breakfast allowance", ("| Region | Breakfast | Dinner |", "| EU | 15 | 45 |")),
    Question("hotel cap per night in Singapore",
             ("| City | Country | Region | Nightly cap (USD) |", "| Singapore | Singapore | APAC | 280 |")),
    Question("nightly hotel cap Lisbon",
             ("| City | Country | Region | Nightly cap (USD) |", "| Lisbon | Portugal | EU | 170 |")),
    Question("hotel cap per night in Auckland",
             ("| City | Country | Region | Nightly cap (USD) |", "| Auckland | New Zealand | APAC | 200 |")),
    Question("how to count listed cities per region",
             ("```bash", "cut -d'|' -f4 | sort | uniq -c", "```")),
    Question("how is a cost centre written", ("cost centre written DEPT|CODE",)),
)
