// Backward LD-Net language model (see lm.libsonnet): reads each sentence right to left.
(import 'lm.libsonnet').experiment('backward')
