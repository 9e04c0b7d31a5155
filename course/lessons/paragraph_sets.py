"""The paragraphs assignment 1 packs, and questions about them with known evidence.

The lesson's worked example is a page of four paragraphs of 80, 120, 60 and 150 words; at a
200-word limit greedy packing gives chunks of 200, 60 and 150 words. The texts are a small
staff handbook, so the questions below have real answers whose evidence we know exactly.
"""
from dataclasses import dataclass

HANDBOOK = (
    # P1 — 80 words
    "Welcome to Nimbus Analytics. This handbook is the single place where our everyday rules "
    "live, written so that a new colleague can find an answer on a first read. Each section "
    "covers one topic, opens with the rule itself and then explains the reasons behind it. "
    "When a rule changes, the section changes with it and the date at the top moves. If "
    "something you need is missing, ask the people team and we will add it here for everyone.",
    # P2 — 120 words
    "Individual purchases over 500 USD require written manager pre-approval before any order "
    "is placed. Software subscriptions of any amount must go through IT procurement, even when "
    "a free trial is offered, because trials quietly turn into paid plans and nobody owns the "
    "renewal. Receipts are mandatory for every expense above 25 USD; a photo taken with the "
    "expense app counts as a receipt as long as the amount, the date and the seller are "
    "readable. Purchases split into several smaller orders to stay under the limit count as "
    "one purchase. If unsure whether a purchase needs approval, ask your manager first. "
    "Finance reviews a random sample of approved purchases every quarter and will ask you for "
    "the full paper trail.",
    # P3 — 60 words
    "All travel must be booked through the Navan portal so that the company knows where you "
    "are if something goes wrong. Economy class is standard for flights under 6 hours. Hotel "
    "budget is capped at 250 USD per night in tier-1 cities and 180 USD elsewhere, taxes "
    "included. Trains are preferred over short flights for any trip under four hours.",
    # P4 — 150 words
    "Submit expense reports within 30 days of purchase, one report per trip. Reimbursement "
    "lands in the next payroll cycle after approval, which means a report approved on the very "
    "first working day of the month is usually paid within two weeks, while one approved on "
    "the last day may wait almost six. Late reports need VP sign-off and a short note "
    "explaining the delay; repeated late reports are discussed in your performance review. "
    "Approvers have five working days to act on a report before it is escalated automatically "
    "to their own manager. Mileage for private cars is reimbursed at the published national "
    "rate, and the trip must be logged with its start, its end and its business purpose. "
    "Currency conversions use the rate on the day of purchase shown on your card statement, "
    "not the rate on the day you file the report, so keep the statement with the receipts.",
)

# One paragraph of 350 words: longer than any sensible limit, so it has to be cut.
SECURITY_BRIEFING = (
    "The security onboarding session is the one meeting that every new colleague attends in "
    "person during the first week, whatever the role, and it is long because it covers "
    "everything that can go wrong before you have learned where anything is. It starts with "
    "the laptop: full-disk encryption is switched on before the machine leaves IT, the screen "
    "locks after five minutes of inactivity, and the operating system installs its updates on "
    "the first evening it is left plugged in. Passwords live in the company password manager "
    "and nowhere else, not in a browser, not in a notebook and never in a chat message, and "
    "every account that offers a second factor must have one, preferably a hardware key that "
    "IT hands out at the session. Customer data stays inside the systems that were built to "
    "hold it; exporting a spreadsheet of customer records to a personal drive or to an "
    "unapproved tool is treated as a reportable incident even when nothing is lost. Phishing "
    "tests arrive a few times a year without warning, and the right reaction to a suspicious "
    "message is to report it with the button in the mail client rather than to delete it, "
    "because a report helps everyone who received the same message. Lost or stolen devices "
    "are reported to the security desk within one hour, day or night, so that the device can "
    "be wiped remotely before anyone has time to guess a password. Visitors sign in at the "
    "front desk and are accompanied at all times, and doors that need a badge are never held "
    "open for someone you do not recognise, however polite that feels. Finally, everyone is "
    "expected to finish the short online course on data protection within thirty days of "
    "joining; the course takes about forty minutes and its certificate is renewed every year. "
    "The session ends with a short quiz, and nobody leaves until every answer is right. Bring "
    "your laptop. Questions about any of this go to the security desk, which answers within a "
    "working day and would rather hear a question twice than miss an incident once."
)

# Two well-formed sections, each a tidy paragraph. The contractors' pay question needs both:
# the pay rule is in the first, and that it applies to contractors is in the second.
LEAVE_SECTIONS = (
    # Parental leave — 79 words
    "Every employee receives 16 weeks of paid parental leave after the birth or adoption of a "
    "child. The leave can start up to four weeks before the expected date and can be taken in "
    "one block or in two blocks within the first year. Pay during parental leave is the full "
    "base salary, and benefits continue as if the employee were at work. Tell the people team "
    "at least eight weeks ahead so that your work can be covered.",
    # Contractors — 57 words
    "Contractors accrue parental leave at 1 day per month worked, up to 12 weeks maximum. "
    "While on that leave they are paid on the same basis as employees, so the pay rule of the "
    "parental leave section applies to them. Contractors do not accrue paid holiday; "
    "their rates already include it. Questions go to their engagement manager.",
)


@dataclass(frozen=True)
class Question:
    """A question and the evidence strings a complete answer needs, all of them."""

    text: str
    evidence: tuple[str, ...]


HANDBOOK_QUESTIONS = (
    Question("Who must approve a 700 USD laptop?",
             ("purchases over 500 USD require written manager pre-approval",)),
    Question("What is the hotel budget per night in a tier-1 city?",
             ("capped at 250 USD per night in tier-1 cities",)),
    Question("I filed my report late. Who has to sign it?",
             ("Late reports need VP sign-off",)),
    Question("Do I need a receipt for a 30 USD taxi booked through Navan?",
             ("Receipts are mandatory for every expense above 25 USD",
              "booked through the Navan portal")),
)

CONTRACTOR_QUESTION = Question(
    "What is a contractor paid while on parental leave?",
    ("Pay during parental leave is the full base salary",
     "they are paid on the same basis as employees"),
)
