// Forward LD-Net language model (see lm.libsonnet).
(import 'lm.libsonnet').experiment('forward')
