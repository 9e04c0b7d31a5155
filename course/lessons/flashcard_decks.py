"""One small flashcard deck per assignment: key facts and the common mistakes.

Each deck is a list of (front, back) pairs. The cards restate what the notebook teaches; the
numbers on them come from the notebooks' own worked examples, never from a graded question.
"""

DECKS: dict[str, list[tuple[str, str]]] = {
    "01": [
        ("What does a retriever hand to the model: documents or chunks?",
         "Chunks. Whatever no single chunk holds, the model never sees together."),
        ("Greedy paragraph packing: when does a paragraph join the current chunk?",
         "When the chunk's word count plus the paragraph's own stays within the limit "
         "(≤ max_words); otherwise it starts a new chunk."),
        ("Is a paragraph that fits within the limit ever split?",
         "No. It is kept whole and verbatim; only a paragraph longer than the limit is cut, "
         "into consecutive pieces of max_words words."),
        ("A paragraph of 250 words at a limit of 100: how many pieces?",
         "Three: 100, 100 and 50 words. The last piece may be shorter; losing it is a classic bug."),
        ("When is a question answerable from a chunking?",
         "When one single chunk holds every piece of its evidence. Pieces spread over two "
         "chunks do not count."),
        ("Does a larger chunk limit always answer more questions?",
         "No. Judge a chunking by the questions it answers, not by how tidy or big its chunks "
         "are; bigger chunks also blur the vector (many topics, one embedding)."),
        ("Can a better boundary rule fix a question whose evidence sits in two sections?",
         "No. No tearing puts two distant sections in one chunk; that needs retrieving more "
         "than one chunk, or a different design."),
    ],
    "02": [
        ("Window size C, overlap O: what is the stride?",
         "S = C − O: each window starts that many units after the one before."),
        ("How many windows for N > 0 units (coverage-stopping)?",
         "K = 1 + ⌈max(0, N − C) / (C − O)⌉."),
        ("Worked example: N = 1000, C = 200, O = 50. How many windows, and how many stored positions?",
         "7 windows (stride 150; 1 + ⌈800/150⌉); 6 × 200 + 100 = 1300 stored positions, "
         "a duplication factor of 1.3."),
        ("Is overlap new evidence?",
         "No. It stores text another window already holds: it can keep a straddling sentence "
         "whole, but it costs storage, embedding calls and top-k slots, and adds no fact."),
        ("What goes wrong with the blind loop `while start < n: start += stride`?",
         "It keeps starting windows after one already reached the end, making redundant "
         "trailing windows that hold nothing new."),
        ("Why measure chunk size in tokens, not characters?",
         "The model's context and the embedding model count tokens. 500 characters of code, "
         "tables or emoji can cost far more tokens than 500 characters of English prose."),
        ("What must a token window never do when decoded?",
         "Cut a character in half (a U+FFFD � in the text): move the boundary to a token that "
         "ends a character, and still keep every window within size."),
    ],
    "03": [
        ("Fixed, recursive, structure-aware: one line each on the mechanism.",
         "Fixed: cut every C units. Recursive: split on the best separator present "
         "(blank line, newline, sentence end, space, hard cut) and merge pieces up to the "
         "limit. Structure-aware: one chunk per section under its heading."),
        ("What does a 'severed' answer mean?",
         "Every piece of the evidence is somewhere in the chunks, but no single chunk holds "
         "them all, so no top-1 retrieval can return the whole answer."),
        ("Overlap or better boundaries: which fixes a torn rule cleanly?",
         "Better boundaries (sentence / section aware). Overlap only patches a cut after it "
         "was made, at a storage cost."),
        ("Why stamp source, heading path and offsets at chunk time?",
         "Only the chunker still knows where a piece came from. Once it is a loose string, "
         "equal texts from different sections cannot be told apart."),
        ("Why prefix a chunk's text with its heading path, e.g. 'Policy > Travel: …'?",
         "The section name then takes part in the embedding, lifting section-flavoured "
         "queries, and a reader of the chunk alone knows its context."),
        ("You change the chunker. What else must be redone?",
         "Re-embed and re-index every chunk. Chunks and their vectors must stay in lockstep; "
         "a partial re-index mixes two chunking generations."),
    ],
    "04": [
        ("Why is a table row that lost its header nearly useless to a model?",
         "Bare numbers do not say what they measure: only the header row tells which column "
         "is which (and in what unit)."),
        ("Table atomicity: what is the rule?",
         "A table that fits is one chunk, kept whole with its heading path; never torn "
         "between rows and its header."),
        ("A table too big for one chunk: how is it split?",
         "By row groups, with the header row (and its delimiter row) repeated at the top of "
         "every group; every data row appears exactly once, in order."),
        ("Which other block in a README deserves the same care as a table?",
         "A code fence: split mid-function and neither half runs or explains anything. Keep "
         "fences atomic."),
        ("What counts as a markdown table line?",
         "A pipe row, with or without leading and trailing pipes, including the delimiter "
         "row such as |---|:--:|."),
        ("How do you check a table chunk is self-sufficient?",
         "Ask: could a model answer the question from this chunk alone? The header, the row "
         "and the section name must all be in it."),
    ],
    "05": [
        ("The one question to ask of any chunk when judging a chunker on a real document?",
         "Could a model answer a question from this chunk alone?"),
        ("Which strategy should win on a README with headings, and what if it does not?",
         "Structure-aware, because the author's headings are the natural boundaries; if it "
         "loses, explain the surprise (e.g. giant sections, or no headings at all)."),
        ("In what unit do you write chunk-size defaults on a decision card, and why?",
         "Tokens, because the embedding model and the context window budget tokens."),
        ("Name the three chunk-time rules.",
         "Stamp metadata (source, heading path, position); keep tables (and code fences) "
         "atomic or repeat the header; prefix each chunk with its heading path."),
        ("Retrieval keeps missing facts. What is the first debugging move?",
         "Look at the chunks for the failing query: is the answer torn, blurred in a huge "
         "chunk, or orphaned from its header? No embedding upgrade repairs a bad tear."),
        ("What does semantic chunking cost compared with structure-aware chunking?",
         "It embeds every sentence at ingest to find the cuts: roughly 10–50× the embedding "
         "calls. Try it when structural boundaries still feel wrong."),
        ("Why are bigger chunks not 'safer'?",
         "Many topics share one vector, so the chunk matches everything vaguely and "
         "precision drops; retrieve small and deliver big is the real fix."),
    ],
    "06": [
        ("Semantic chunking in one sentence?",
         "Embed every sentence, compare each with the next, and cut where the similarity of "
         "neighbours drops below a threshold: where the topic probably changed."),
        ("Semantic chunking's embedding calls at ingest, for S sentences and K chunks?",
         "S + K: every sentence to find the cuts, then every chunk for the index; "
         "structure-aware needs only one per chunk (roughly 10–50× fewer)."),
        ("Raise the threshold: more chunks or fewer?",
         "Never fewer: a gap that cuts at one threshold cuts at every higher one. Too high "
         "and answers tear like under a careless fixed chunker."),
        ("When is semantic chunking worth its price?",
         "On text with no useful structure (notes, transcripts, chats) or where structural "
         "boundaries still feel wrong, and when the ingest bill is acceptable."),
        ("What do semantic chunks lose that structure-aware chunks keep?",
         "The heading path: 'Late reports need VP sign-off.' no longer says which section "
         "it came from. Stamp metadata at chunk time anyway."),
        ("You change the similarity threshold after launch. What follows?",
         "A re-chunk, so re-embed and re-index everything: chunks and vectors must stay in "
         "lockstep."),
    ],
}
