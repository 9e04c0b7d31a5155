"""The lab's documents and the questions about them whose evidence we know.

``POLICY`` is the expense and travel policy the three chunkers tear (assignment 3);
``POLICY_WITH_PER_DIEM`` adds the per-diem table that breaks under a fixed chunker
(assignment 4); ``HR_LEAVE`` holds the contractors' clause the "three fates" stepper follows.
Evidence strings never cross a line break, so each is a plain substring of the document.
"""
from .paragraph_sets import Question

POLICY = """# Nimbus Analytics — Expense & Travel Policy

## Purchases
Individual purchases over 500 USD require written manager pre-approval.
Software subscriptions of any amount must go through IT procurement.
Receipts are mandatory for every expense above 25 USD.

## Travel
All travel must be booked through the Navan portal. Economy class is
standard for flights under 6 hours. Hotel budget is capped at 250 USD
per night in tier-1 cities and 180 USD elsewhere.

## Reimbursement
Submit expense reports within 30 days of purchase. Reimbursement lands
in the next payroll cycle after approval. Late reports need VP sign-off.
"""

# The lesson's table: pipe-separated rows, no leading pipes, no delimiter row.
PER_DIEM_SECTION = """## Per-diem rates
Daily meal allowances in USD, paid on top of the hotel budget.

Region | Breakfast | Dinner
US | 20 | 50
EU | 15 | 45
APAC | 12 | 40
"""

POLICY_WITH_PER_DIEM = POLICY + "\n" + PER_DIEM_SECTION

HR_LEAVE = """# Nimbus Analytics — People Handbook

## 3 Employee leave
Employees receive 16 weeks of paid parental leave at full base salary.
Leave can start up to four weeks before the expected date and may be
split into two blocks within the first year.

### 3.2 Contractors
Contractors' leave accrues at 1 day per month worked,
up to 12 weeks maximum. Contractors engaged for less than
three months accrue no parental leave.

## 4 Expense policy
Receipts are mandatory for every expense above 25 USD. Expense reports
are due within 30 days of purchase.
"""

# The lab's three queries, then more with known evidence for the evaluation.
LAB_QUERIES = (
    Question("what is the travel booking limit",
             ("Individual purchases over 500 USD", "written manager pre-approval")),
    Question("hotel budget per night",
             ("Hotel budget is capped at 250 USD", "per night in tier-1 cities and 180 USD elsewhere")),
    Question("when do I get reimbursed",
             ("Reimbursement lands", "in the next payroll cycle after approval")),
)

POLICY_QUESTIONS = LAB_QUERIES + (
    Question("do software subscriptions need procurement",
             ("Software subscriptions of any amount must go through IT procurement",)),
    Question("which receipts are mandatory",
             ("Receipts are mandatory for every expense above 25 USD",)),
    Question("what class can I fly",
             ("Economy class is", "standard for flights under 6 hours")),
    Question("how to book travel", ("All travel must be booked through the Navan portal",)),
    Question("deadline for expense reports",
             ("Submit expense reports within 30 days of purchase",)),
    Question("who signs late reports", ("Late reports need VP sign-off",)),
)

CONTRACTOR_LEAVE = Question(
    "How much parental leave do contractors get?",
    ("leave accrues at 1 day per month worked", "up to 12 weeks maximum"),
)

HR_QUESTIONS = (
    CONTRACTOR_LEAVE,
    Question("how long is parental leave for employees",
             ("Employees receive 16 weeks of paid parental leave",)),
    Question("when can parental leave start",
             ("Leave can start up to four weeks before the expected date",)),
    Question("do short contractors get parental leave",
             ("Contractors engaged for less than", "three months accrue no parental leave")),
    Question("receipts needed above what amount",
             ("Receipts are mandatory for every expense above 25 USD",)),
)

PER_DIEM_QUERY = Question("APAC dinner per diem", ("Region | Breakfast | Dinner", "APAC | 12 | 40"))
