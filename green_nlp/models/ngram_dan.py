"""The student of sparse distillation (Ye et al. 2022): a Deep Averaging Network over n-grams.

An n-gram embedding table (most of the parameters, sparse gradients) -> mean over the text's
n-grams -> two fully connected layers -> logits. Per text the cost is one embedding lookup per
n-gram plus two small matrix products, whatever the table's size.
"""

from typing import Any, Optional

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import Vocabulary
from allennlp.models import Model
from allennlp.nn import Activation, InitializerApplicator
from allennlp.training.metrics import CategoricalAccuracy

from green_nlp.data.gold_label_field import UNSEEN_LABEL, check_no_unseen_while_training
from green_nlp.data.ngram_vocabulary import NGRAM_NAMESPACE
from green_nlp.models.setting_checks import check_dropouts
from green_nlp.modules.ngram_word_vectors import initialise_from_word_vectors
from green_nlp.names import register_with_old_names
from green_nlp.training.distiller import Distillable, Distiller
from green_nlp.training.logit_distiller import LogitDistillationInput, LogitDistiller


@register_with_old_names(Model, "green_ngram_dan")  # first name: ngram_dan
class NgramDan(Model, Distillable):
    """
    # Parameters

    vocab : `Vocabulary`
        With the n-gram namespace (`green_ngram_count_vectorizer`) and the labels.
    embedding_dim : `int`, optional (default = `1000`, the paper's d)
    hidden_dim : `int`, optional (default = `embedding_dim`)
    activation : `Activation`, optional (default = `relu`, the paper's equation; the reference
        code uses tanh)
    dropout : `float`, optional (default = `0.0`)
        Before each of the two layers.
    ngram_dropout : `float`, optional (default = `0.0`)
        Training only: each n-gram occurrence is dropped from the mean with this probability.
    init_std : `float`, optional (default = `0.1`)
        Standard deviation of the embedding table's normal initialisation.
    pretrained_file : `str`, optional (default = `None`, the paper's random start)
        GloVe-style word vectors (plain or .gz): each n-gram whose words have vectors starts from
        their mean in the table's first columns (`green_nlp.modules.ngram_word_vectors`). Beyond
        the paper. Like AllenNLP's `Embedding`, the file is read only when training starts: loading
        an archive drops this key and takes the trained table.
    initializer : `InitializerApplicator`, optional
        For DAN(KD+FT): a `pretrained` initializer loading DAN(KD)'s `best.th`. AllenNLP drops
        it when loading an archive, so the fine-tuned archive stands alone.

    Forward takes `ngrams` (batch, max_ngrams) with 0 as padding, and optionally `label`
    (batch,) and `teacher_logits` (batch, classes). The loss comes from the attached
    `LogitDistiller` (`green_logit_distillation` callback sets its temperature and weights;
    without it: temperature 1, KL + CE). A gold label the vocabulary lacks (`UNSEEN_LABEL`, from
    evaluating on a file with a class the model never saw) counts as a wrong prediction in
    `accuracy` and is left out of the loss; in training it is an error.
    """

    distiller_kind = LogitDistiller

    default_predictor = "green_text_classifier"

    def __init__(
        self,
        vocab: Vocabulary,
        embedding_dim: int = 1000,
        hidden_dim: Optional[int] = None,
        activation: Optional[Activation] = None,
        dropout: float = 0.0,
        ngram_dropout: float = 0.0,
        init_std: float = 0.1,
        pretrained_file: Optional[str] = None,
        ngram_namespace: str = NGRAM_NAMESPACE,
        label_namespace: str = "labels",
        initializer: Optional[InitializerApplicator] = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(vocab, **kwargs)
        check_dropouts("green_ngram_dan", dropout=dropout, ngram_dropout=ngram_dropout)
        num_ngrams = vocab.get_vocab_size(ngram_namespace)
        num_labels = vocab.get_vocab_size(label_namespace)
        if num_ngrams <= 2:
            raise ConfigurationError(
                f"vocabulary namespace '{ngram_namespace}' has no n-grams; build it with "
                '"vocabulary": {"type": "green_ngram_count_vectorizer", ...}'
            )
        if num_labels < 2:
            raise ConfigurationError(f"vocabulary namespace '{label_namespace}' has {num_labels} labels; need >= 2")
        if embedding_dim < 1 or (hidden_dim is not None and hidden_dim < 1):
            raise ConfigurationError(
                f"embedding_dim and hidden_dim must be positive, got {embedding_dim}, {hidden_dim}"
            )
        if not 0.0 <= ngram_dropout < 1.0 or not 0.0 <= dropout < 1.0:
            raise ConfigurationError(f"dropout and ngram_dropout must be in [0, 1), got {dropout}, {ngram_dropout}")
        hidden_dim = hidden_dim or embedding_dim
        self._ngram_namespace, self._label_namespace = ngram_namespace, label_namespace
        # padding_idx=0: padding is left out of the mean (and its row gets no gradient).
        self.ngram_embedding = torch.nn.EmbeddingBag(num_ngrams, embedding_dim, mode="mean", sparse=True, padding_idx=0)
        with torch.no_grad():
            self.ngram_embedding.weight.normal_(0.0, init_std)
            self.ngram_embedding.weight[0].zero_()
        if pretrained_file is not None:
            index_to_ngram = vocab.get_index_to_token_vocabulary(ngram_namespace)
            # rows 0 and 1 are padding and the unused OOV entry: left as they are
            ngrams = ["" if i < 2 else index_to_ngram[i] for i in range(num_ngrams)]
            initialise_from_word_vectors(self.ngram_embedding.weight.data, ngrams, pretrained_file, init_std)
        self.hidden = torch.nn.Linear(embedding_dim, hidden_dim)
        self.output = torch.nn.Linear(hidden_dim, num_labels)
        self.activation = activation or Activation.by_name("relu")()
        self.dropout = torch.nn.Dropout(dropout)
        self.ngram_dropout = ngram_dropout
        self.accuracy = CategoricalAccuracy()
        self.teacher_agreement = CategoricalAccuracy()
        self._default_distiller = LogitDistiller()
        if initializer is not None:  # e.g. DAN(KD+FT) starts from DAN(KD)'s weights (dropped on archive load)
            initializer(self)

    @property
    def label_namespace(self) -> str:
        """The vocabulary namespace of the labels (teacher labelling and the exporter name the
        labels from it)."""
        return self._label_namespace

    @property
    def ngram_namespace(self) -> str:
        """The vocabulary namespace of the n-grams (row i of `ngram_embedding` is its token i)."""
        return self._ngram_namespace

    def default_distiller(self) -> Distiller:
        """Without a `green_logit_distillation` callback: T = 1, KL + CE."""
        return self._default_distiller

    def encode(self, ngrams: torch.Tensor) -> torch.Tensor:
        """(batch, max_ngrams) ids -> (batch, embedding_dim) mean of the n-gram embeddings."""
        if self.training and self.ngram_dropout > 0:
            keep = torch.rand(ngrams.shape, device=ngrams.device) >= self.ngram_dropout
            ngrams = ngrams * keep
        # (batch, embedding_dim); a text without known n-grams gets zeros
        return self.ngram_embedding(ngrams)

    def forward(
        self, ngrams: torch.Tensor, label: Optional[torch.Tensor] = None, teacher_logits: Optional[torch.Tensor] = None
    ) -> dict[str, torch.Tensor]:
        pooled = self.encode(ngrams)
        # (batch, hidden_dim)
        hidden = self.activation(self.hidden(self.dropout(pooled)))
        # (batch, num_labels)
        logits = self.output(self.dropout(hidden))
        output = {"logits": logits, "probs": logits.softmax(-1), "num_ngrams": (ngrams != 0).sum(-1)}
        if label is not None or teacher_logits is not None:
            output["loss"] = self._loss(logits, teacher_logits, label)
        if label is not None:
            self.accuracy(logits, label)
        if teacher_logits is not None:
            self.teacher_agreement(logits, teacher_logits.argmax(-1))
        return output

    def _loss(
        self, logits: torch.Tensor, teacher_logits: Optional[torch.Tensor], label: Optional[torch.Tensor]
    ) -> torch.Tensor:
        """The distiller's loss over the examples whose gold label the model knows."""
        distiller = self.distiller
        assert distiller is not None  # default_distiller() gives one
        if label is None or not bool((label == UNSEEN_LABEL).any()):
            return distiller.loss(LogitDistillationInput(logits, teacher_logits, label))
        check_no_unseen_while_training(self, label, "label")
        seen = label != UNSEEN_LABEL
        if not bool(seen.any()):
            return logits.sum() * 0.0  # nothing to score: a zero that keeps the graph
        return distiller.loss(
            LogitDistillationInput(logits[seen], None if teacher_logits is None else teacher_logits[seen], label[seen])
        )

    def make_output_human_readable(self, output_dict: dict[str, Any]) -> dict[str, Any]:
        names = self.vocab.get_index_to_token_vocabulary(self._label_namespace)
        output_dict["label"] = [names[int(i)] for i in output_dict["probs"].argmax(-1)]
        output_dict["label_names"] = [[names[i] for i in range(len(names))]] * len(output_dict["label"])
        return output_dict

    def get_metrics(self, reset: bool = False) -> dict[str, float]:
        metrics = {}
        if self.accuracy.total_count:
            metrics["accuracy"] = self.accuracy.get_metric(reset)
        if self.teacher_agreement.total_count:
            metrics["teacher_agreement"] = self.teacher_agreement.get_metric(reset)
        return metrics
