// MiniLM-L6 teacher on IMDB, GPU-sized (the issue: "use a GPU when one is available"): all
// training reviews but every 12th (22,917; split 'train' of dev_every 12), word pieces cut at 512
// (MiniLM's limit), 2 epochs, mixed precision. Validation on the 2,083 held-out reviews (every
// 12th, split 'dev'); the test set is left to benchmarks/dan/distillation.py. Train on a GPU with
//   allennlp train training_configs/dan/teacher_imdb_full.jsonnet -s runs/dan/imdb_full/teacher \
//     --include-package green_nlp -o '{"trainer.cuda_device": 0, "trainer.use_amp": true}'
// (bash benchmarks/runs/dan.sh imdb_full_gpu); on a CPU it would take days on two cores.
local lib = import 'teacher.libsonnet';
local data = std.extVar('GREEN_NLP_DATA') + '/cls/imdb/';

lib.teacher(data + 'train.jsonl.gz', data + 'train.jsonl.gz', max_length=512, batch_size=32, lr=5e-5,
            epochs=2, warmup_steps=140, train_split='train', dev_split='dev') + {
  dataset_reader+: { dev_every: 12 },
  validation_dataset_reader+: { dev_every: 12 },
}
