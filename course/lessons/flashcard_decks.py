"""One small flashcard deck per assignment: key facts and the common mistakes.

Each deck is a list of ``Card``s. The cards restate what the notebook teaches; the numbers on
them come from the notebooks' own worked examples. A card whose back would answer one of the
notebook's graded questions names that question's answer variables in ``after``: its back is
stored *sealed* (base64, so ``print(DECKS)`` shows no answer) and the widget opens it only
once every one of those variables holds an answer (``flashcards(deck, answers=globals())``).
Seal a new back with ``python -m course.lessons.flashcard_decks "text"``.
"""
import base64
import sys
from typing import NamedTuple


class Card(NamedTuple):
    front: str
    back: str                 # plain text, or sealed when ``after`` names answer variables
    after: tuple[str, ...] = ()

    @property
    def locked(self) -> bool:
        return bool(self.after)


def seal(text: str) -> str:
    """The stored form of a locked card's back."""
    return base64.b64encode(text.encode("utf-8")).decode("ascii")


def unseal(sealed: str) -> str:
    return base64.b64decode(sealed.encode("ascii")).decode("utf-8")


def back_of(card: Card) -> str:
    """The readable back of a card (locked or not). The widget decides when to show it."""
    return unseal(card.back) if card.locked else card.back


DECKS: dict[str, list[Card]] = {
    "01": [
        Card('What does a retriever hand to the model: documents or chunks?',
             'Chunks. Whatever no single chunk holds, the model never sees together.'),
        Card('Greedy paragraph packing: when does a paragraph join the current chunk?',
             "When the chunk's word count plus the paragraph's own stays within the limit (≤ "
             'max_words); otherwise it starts a new chunk.'),
        Card('Is a paragraph that fits within the limit ever split?',
             'No. It is kept whole and verbatim; only a paragraph longer than the limit is cut, '
             'into consecutive pieces of max_words words.'),
        Card('A paragraph of 250 words at a limit of 100: how many pieces?',
             'Three: 100, 100 and 50 words. The last piece may be shorter; losing it is a classic '
             'bug.'),
        Card('When is a question answerable from a chunking?',
             'When one single chunk holds every piece of its evidence. Pieces spread over two '
             'chunks do not count.'),
        Card('Does a larger chunk limit always answer more questions?',
             'No. Judge a chunking by the questions it answers, not by how tidy or big its chunks '
             'are; bigger chunks also blur the vector (many topics, one embedding).'),
        Card('Can a better boundary rule fix a question whose evidence sits in two sections?',
             'Tm8uIE5vIGJvdW5kYXJ5IHJ1bGUgcHV0cyB0d28gZGlzdGFudCBzZWN0aW9ucyBpbiBvbmUgY2h1bms7IHRoYXQgbmVlZHMgcmV0cmlldmluZyBtb3JlIHRoYW4gb25lIGNodW5rLCBvciBhIGRpZmZlcmVudCBkZXNpZ24u',
             after=('needs_two_sections', 'understanding')),
    ],
    "02": [
        Card('Window size C, overlap O: what is the stride?',
             'S = C − O: each window starts that many units after the one before.'),
        Card('How many windows for N > 0 units (coverage-stopping)?',
             'K = 1 + ⌈max(0, N − C) / (C − O)⌉.'),
        Card('Worked example: N = 1000, C = 200, O = 50. How many windows, and how many stored positions?',
             '7 windows (stride 150; 1 + ⌈800/150⌉); 6 × 200 + 100 = 1300 stored positions, a '
             'duplication factor of 1.3.'),
        Card('Is overlap new evidence?',
             'Tm8uIEl0IHN0b3JlcyB0ZXh0IGFub3RoZXIgd2luZG93IGFscmVhZHkgaG9sZHM6IGl0IGNhbiBrZWVwIGEgc3RyYWRkbGluZyBzZW50ZW5jZSB3aG9sZSwgYnV0IGl0IGNvc3RzIHN0b3JhZ2UsIGVtYmVkZGluZyBjYWxscyBhbmQgdG9wLWsgc2xvdHMsIGFuZCBhZGRzIG5vIGZhY3Qu',
             after=('overlap_evidence',)),
        Card('What goes wrong with the blind loop `while start < n: start += stride`?',
             'SXQga2VlcHMgc3RhcnRpbmcgd2luZG93cyBhZnRlciBvbmUgYWxyZWFkeSByZWFjaGVkIHRoZSBlbmQsIG1ha2luZyByZWR1bmRhbnQgdHJhaWxpbmcgd2luZG93cyB0aGF0IGhvbGQgbm90aGluZyBuZXcu',
             after=('blind_example',)),
        Card('Why measure chunk size in tokens, not characters?',
             'VGhlIG1vZGVsJ3MgY29udGV4dCBhbmQgdGhlIGVtYmVkZGluZyBtb2RlbCBjb3VudCB0b2tlbnMuIDUwMCBjaGFyYWN0ZXJzIG9mIGNvZGUsIHRhYmxlcyBvciBlbW9qaSBjYW4gY29zdCBmYXIgbW9yZSB0b2tlbnMgdGhhbiA1MDAgY2hhcmFjdGVycyBvZiBFbmdsaXNoIHByb3NlLg==',
             after=('overflow_at_500',)),
        Card('What must a token window never do when decoded?',
             'Cut a character in half (a U+FFFD � in the text): move the boundary to a token that '
             'ends a character, and still keep every window within size.'),
    ],
    "03": [
        Card('Fixed, recursive, structure-aware: one line each on the mechanism.',
             'Fixed: cut every C units. Recursive: split on the best separator present (blank '
             'line, newline, sentence end, space, hard cut) and merge pieces up to the limit. '
             'Structure-aware: one chunk per section under its heading.'),
        Card('Cut, severed, lost: what does each word mean?',
             'Cut: a chunk boundary falls inside a unit (a sentence, a rule, a table row). '
             'Severed: every part of an answer survives, but in different chunks. Lost: a part is '
             'in no chunk whole, so no chunk can ever show it.'),
        Card('Overlap or better boundaries: which fixes a rule cut from its amount cleanly?',
             'Qm91bmRhcmllcyBhdCBzZW50ZW5jZSBlbmRzIGFuZCBzZWN0aW9ucyAob24gaGFyZC13cmFwcGVkIHByb3NlLCAnLiAnIGJlZm9yZSAnXG4nIGluIHRoZSBzZXBhcmF0b3JzKS4gT3ZlcmxhcCBvbmx5IHBhdGNoZXMgYSBjdXQgYWZ0ZXIgaXQgd2FzIG1hZGUsIGF0IGEgc3RvcmFnZSBjb3N0Lg==',
             after=('fix_for_torn_rule',)),
        Card('Why stamp source, heading path and offsets at chunk time?',
             'T25seSB0aGUgY2h1bmtlciBzdGlsbCBrbm93cyB3aGVyZSBhIHBpZWNlIGNhbWUgZnJvbS4gT25jZSBpdCBpcyBhIGxvb3NlIHN0cmluZywgZXF1YWwgdGV4dHMgZnJvbSBkaWZmZXJlbnQgc2VjdGlvbnMgY2Fubm90IGJlIHRvbGQgYXBhcnQu',
             after=('why_chunk_time',)),
        Card("Why prefix a chunk's text with its heading path, e.g. 'Policy > Travel: …'?",
             'The section name then takes part in the embedding, lifting section-flavoured '
             'queries, and a reader of the chunk alone knows its context.'),
        Card('You change the chunker. What else must be redone?',
             'Re-embed and re-index every chunk. Chunks and their vectors must stay in lockstep; a'
             ' partial re-index mixes two chunking generations.'),
    ],
    "04": [
        Card('Why is a table row that lost its header nearly useless to a model?',
             'QmFyZSBudW1iZXJzIGRvIG5vdCBzYXkgd2hhdCB0aGV5IG1lYXN1cmU6IG9ubHkgdGhlIGhlYWRlciByb3cgdGVsbHMgd2hpY2ggY29sdW1uIGlzIHdoaWNoIChhbmQgaW4gd2hhdCB1bml0KS4=',
             after=('apac_alone_enough',)),
        Card('Table atomicity: what is the rule?',
             'A table that fits is one chunk, kept whole with its heading path; its rows are never'
             ' severed from their header.'),
        Card('A table too big for one chunk: how is it split?',
             'Qnkgcm93IGdyb3Vwcywgd2l0aCB0aGUgaGVhZGVyIHJvdyAoYW5kIGl0cyBkZWxpbWl0ZXIgcm93KSByZXBlYXRlZCBhdCB0aGUgdG9wIG9mIGV2ZXJ5IGdyb3VwOyBldmVyeSBkYXRhIHJvdyBhcHBlYXJzIGV4YWN0bHkgb25jZSwgaW4gb3JkZXIu',
             after=('row_without_header_possible',)),
        Card('Which other block in a README deserves the same care as a table?',
             'A code fence: cut mid-function and neither half runs or explains anything. Keep '
             'fences atomic.'),
        Card('What counts as a markdown table line?',
             'A pipe row, with or without leading and trailing pipes, including the delimiter row '
             'such as |---|:--:|.'),
        Card('How do you check a table chunk is self-sufficient?',
             'Ask: could a model answer the question from this chunk alone? The header, the row '
             'and the section name must all be in it.'),
    ],
    "05": [
        Card('The one question to ask of any chunk when judging a chunker on a real document?',
             'Could a model answer a question from this chunk alone?'),
        Card('Which strategy should win on a README with headings, and what if it does not?',
             "Structure-aware, because the author's headings are the natural boundaries; if it "
             'loses, explain the surprise (e.g. giant sections, or no headings at all).'),
        Card('In what unit do you write chunk-size defaults on a decision card, and why?',
             'Tokens, because the embedding model and the context window budget tokens.'),
        Card('Name the three chunk-time rules.',
             'Stamp metadata (source, heading path, position, version); keep tables (and code '
             'fences) atomic or repeat the header; prefix each chunk with its heading path.'),
        Card('Retrieval keeps missing facts. What is the first debugging move?',
             'Show me your chunks: look at the chunks for the failing query. Is the answer cut, '
             'severed, blurred in a huge chunk, or a row without its header? No embedding upgrade '
             'repairs a bad cut.'),
        Card('Roughly how many embedding calls does semantic chunking make at ingest, against structure-aware chunking?',
             "On this course's three documents, 5× to 20× (assignment 6 measures it); more "
             'sentences per section, a bigger bill. Try it when structural boundaries still feel '
             'wrong.'),
        Card("Why are bigger chunks not 'safer'?",
             'TWFueSB0b3BpY3Mgc2hhcmUgb25lIHZlY3Rvciwgc28gdGhlIGNodW5rIG1hdGNoZXMgZXZlcnl0aGluZyB2YWd1ZWx5IGFuZCBwcmVjaXNpb24gZHJvcHM7IHJldHJpZXZlIHNtYWxsIGFuZCBkZWxpdmVyIGJpZyBpcyB0aGUgcmVhbCBmaXgu',
             after=('KNOWLEDGE',)),
    ],
    "06": [
        Card('Semantic chunking in one sentence?',
             'Embed every sentence, compare each with the next, and cut where the similarity of '
             'neighbours drops below a threshold: where the topic probably changed.'),
        Card("Semantic chunking's embedding calls at ingest, for S sentences and K chunks?",
             'UyArIEs6IGV2ZXJ5IHNlbnRlbmNlIHRvIGZpbmQgdGhlIGN1dHMsIHRoZW4gZXZlcnkgY2h1bmsgZm9yIHRoZSBpbmRleDsgc3RydWN0dXJlLWF3YXJlIG5lZWRzIG9ubHkgb25lIHBlciBjaHVuayAoNcOXIHRvIDIww5cgZmV3ZXIgb24gdGhpcyBjb3Vyc2UncyBkb2N1bWVudHMpLg==',
             after=('cost_source',)),
        Card('Raise the threshold: more chunks or fewer?',
             'TmV2ZXIgZmV3ZXI6IGEgZ2FwIHRoYXQgY3V0cyBhdCBvbmUgdGhyZXNob2xkIGN1dHMgYXQgZXZlcnkgaGlnaGVyIG9uZS4gVG9vIGhpZ2ggYW5kIGFuc3dlcnMgYXJlIHNldmVyZWQgbGlrZSB1bmRlciBhIGNhcmVsZXNzIGZpeGVkIGNodW5rZXIu',
             after=('threshold_effect',)),
        Card('When is semantic chunking worth its price?',
             'T24gdGV4dCB3aXRoIG5vIHVzZWZ1bCBzdHJ1Y3R1cmUgKG5vdGVzLCB0cmFuc2NyaXB0cywgY2hhdHMpIG9yIHdoZXJlIHN0cnVjdHVyYWwgYm91bmRhcmllcyBzdGlsbCBmZWVsIHdyb25nLCBhbmQgd2hlbiB0aGUgaW5nZXN0IGJpbGwgaXMgYWNjZXB0YWJsZS4=',
             after=('worth_it_when',)),
        Card('What do semantic chunks lose that structure-aware chunks keep?',
             "The heading path: 'Late reports need VP sign-off.' does not name its section. Stamp "
             'metadata at chunk time anyway.'),
        Card('You change the similarity threshold after launch. What follows?',
             'A re-chunk, so re-embed and re-index everything: chunks and vectors must stay in '
             'lockstep.'),
    ],
}


if __name__ == "__main__":
    print(seal(" ".join(sys.argv[1:])))
