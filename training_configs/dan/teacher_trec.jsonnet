// MiniLM-L6 teacher on TREC question classification (train 5,452, test 500, no dev split). A dev
// set is carved from the training file: every 10th question (545) validates and picks the best
// epoch, the other 4,907 train; the test set is only evaluated at the end.
// The 6 coarse classes (ABBR, DESC, ENTY, HUM, LOC, NUM); set fine_labels=true for the 50 fine
// ones (the paper's setting). CPU-sized: word pieces cut at 48, 2 epochs.
local lib = import 'teacher.libsonnet';
local data = std.extVar('GREEN_NLP_DATA') + '/cls/trec/';

lib.teacher(data + 'train.txt', data + 'train.txt', data + 'test.txt', max_length=48, epochs=2,
            warmup_steps=30, lr=1e-4, train_split='train', dev_split='dev')
