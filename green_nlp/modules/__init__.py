from green_nlp.modules.dense_lstm import DenseLstm
