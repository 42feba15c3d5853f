// Readable class names for the readers' `label_names` (label as the data file writes it -> name), one
// mapping per data set, shared by its teacher and its students: the teacher's cache and the students
// match logits to classes by these names. benchmarks/reports/model_cards.py lists them in the cards.
// IMDB ("neg"/"pos") and TREC (ABBR, DESC, ENTY, HUM, LOC, NUM) write readable labels already.
{
  sst2: { '0': 'negative', '1': 'positive' },
}
