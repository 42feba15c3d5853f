// One run of the parser studies, named by the external variable ABLATION (a key of
// variants.libsonnet's `ablations`, e.g. ud_wolof_wtb_d20_cross_fit):
//   ABLATION=ud_wolof_wtb_d20_cross_fit allennlp train experiments/parser/ablation.jsonnet \
//     -s runs/parser/ud_wolof_wtb/ablations/d20_cross_fit --include-package green_nlp
local variants = (import 'variants.libsonnet').ablations;
local name = std.extVar('ABLATION');
if std.objectHas(variants, name) then variants[name]
else error 'ABLATION must name one of experiments/parser/variants.libsonnet ablations, not ' + name
