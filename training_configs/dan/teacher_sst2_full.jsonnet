// MiniLM-L6 teacher on SST-2, GPU-sized (the issue: "use a GPU when one is available"): all 67,349
// training phrases, word pieces cut at 64, 2 epochs, mixed precision; dev 872 and test 1,821
// sentences. Train on a GPU with
//   allennlp train training_configs/dan/teacher_sst2_full.jsonnet -s runs/dan/sst2_full/teacher \
//     --include-package green_nlp -o '{"trainer.cuda_device": 0, "trainer.use_amp": true}'
// (bash benchmarks/runs/dan.sh sst2_full_gpu). teacher_sst2.jsonnet is the CPU-sized one.
local lib = import 'teacher.libsonnet';
local labels = import 'labels.libsonnet';
local data = std.extVar('GREEN_NLP_DATA') + '/cls/sst2/';

lib.teacher(data + 'train.tsv', data + 'dev.tsv', data + 'test.tsv', max_length=64, batch_size=32, lr=3e-5,
            epochs=2, warmup_steps=250,
            label_names=labels.sst2)
