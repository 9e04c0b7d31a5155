"""Five short documents of different kinds, for measuring tokens against characters and words.

Assignment 2 sizes windows in tokens, characters or words; these samples show how far apart
those units drift by content type. All five are about the same (fictional) expense policy, so
only the *form* changes: prose, markdown, code, a pipe table, and a chat thread full of emoji
and CJK text (whose characters often cost several tokens each, and whose multi-byte characters
can be split between tokens).
"""

PROSE = (
    "Reimbursement is meant to be boring. You spend money on the company's behalf, you keep the "
    "receipt, and within thirty days you file one report per trip. An approver has five working "
    "days to accept it; after that the report climbs to their own manager without anyone having "
    "to chase it. Approved reports are paid with the next payroll run, so a report approved on "
    "the first working day of the month usually arrives within two weeks, while one approved on "
    "the last day may wait almost six. Late reports are still paid, but they need a short note "
    "explaining the delay and a sign-off from a vice president, and a habit of late reports is "
    "discussed in your review. Currency conversions use the rate printed on your card statement "
    "for the day of purchase, not the rate on the day you file, which is why the statement "
    "belongs in the report together with the receipts. Private cars are reimbursed per kilometre "
    "at the published national rate; log the start, the end and the business purpose of every "
    "trip, because a mileage claim without a purpose is returned unpaid. When in doubt, ask "
    "before you spend: a question costs a minute, a rejected claim costs a month."
)

MARKDOWN = """# Travel policy

## Booking

- Book every trip in the **Navan** portal, so we know where you are.
- Flights under 6 hours: *economy*. Longer flights: premium economy.
- Prefer trains for trips under 4 hours (see [rail guide](https://intranet.example/rail)).

## Hotels

| City tier | Cap per night |
|-----------|---------------|
| Tier 1    | 250 USD       |
| Elsewhere | 180 USD       |

> Taxes are included in the cap. Breakfast is not.

## Per diem

1. Meals are covered by the per-diem rate of the destination.
2. Do **not** claim meals that were provided (conference lunch, flight meal).
3. Half the rate applies on the days you travel out and back.

### Questions?

Ask in `#travel-help` or write to travel@example.com; answers within one working day.
"""

CODE = '''from dataclasses import dataclass
from datetime import date, timedelta


@dataclass(frozen=True)
class Expense:
    amount_usd: float
    spent_on: date
    has_receipt: bool
    category: str = "other"


def needs_preapproval(expense: Expense) -> bool:
    """Purchases above 500 USD need written manager approval first."""
    return expense.amount_usd > 500 or expense.category == "software"


def is_late(expense: Expense, filed_on: date) -> bool:
    """Reports are due within 30 days of the purchase."""
    return filed_on - expense.spent_on > timedelta(days=30)


def problems(expense: Expense, filed_on: date) -> list[str]:
    found = []
    if expense.amount_usd > 25 and not expense.has_receipt:
        found.append("receipt missing (required above 25 USD)")
    if is_late(expense, filed_on):
        found.append("late: needs VP sign-off and a note")
    if needs_preapproval(expense):
        found.append("check the pre-approval is attached")
    return found
'''

TABLE = """| City | Country | Tier | Lodging cap (USD) | Meals per day (USD) | Incidentals (USD) |
|------|---------|------|------------------:|--------------------:|------------------:|
| New York | US | 1 | 250 | 79 | 5 |
| San Francisco | US | 1 | 250 | 79 | 5 |
| Chicago | US | 1 | 250 | 74 | 5 |
| Austin | US | 2 | 180 | 64 | 5 |
| Denver | US | 2 | 180 | 69 | 5 |
| London | UK | 1 | 250 | 85 | 10 |
| Manchester | UK | 2 | 180 | 60 | 10 |
| Berlin | DE | 1 | 250 | 66 | 8 |
| Munich | DE | 1 | 250 | 70 | 8 |
| Lisbon | PT | 2 | 180 | 52 | 8 |
| Tokyo | JP | 1 | 250 | 88 | 10 |
| Osaka | JP | 2 | 180 | 72 | 10 |
| Singapore | SG | 1 | 250 | 81 | 10 |
| São Paulo | BR | 2 | 180 | 58 | 8 |
| Nairobi | KE | 2 | 180 | 55 | 8 |
"""

EMOJI_CJK = (
    "🧾✈️ Team thread · 出張精算 / 差旅报销\n"
    "Aiko: 東京出張のレシート、全部アップしました 🙌 ホテルは一泊二万八千円でした。\n"
    "Wei: 上限是每晚250美元，含税 ✅ 早餐不能报销 🍳❌\n"
    "Aiko: 了解です！朝食は自腹にします 😅 新幹線のチケットも添付済み 🚄🎫\n"
    "Minh: Mileage claim for the Osaka trip 🚗💨 — 312 km, purpose: client workshop 🤝\n"
    "Wei: 记得在三十天内提交报告 📅⏰ 否则需要副总裁签字 ✍️\n"
    "Aiko: はい！金曜日までに提出します 🙇‍♀️ 為替レートはカード明細の日付で 💴➡️💵\n"
    "Minh: 👍👍 Receipts > 25 USD are mandatory, photos are fine 📸\n"
    "Wei: 周末愉快 🎉🍜🍣 下周见 👋\n"
)

SAMPLES = {
    "prose": PROSE,
    "markdown": MARKDOWN,
    "code": CODE,
    "table": TABLE,
    "emoji + CJK": EMOJI_CJK,
}
