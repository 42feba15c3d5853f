// One cell of a config matrix, picked by a Jsonnet external variable: the parser students, the DAN
// students and the LD-Net taggers share it, so every matrix refuses a value outside it the same way.
{
  // The value of `options` named by `value`, or an error naming the variable `what` and listing the
  // values it takes (Jsonnet's own message would only say that a field is missing).
  choose(what, options, value)::
    if std.objectHas(options, value) then options[value]
    else error '%s must be one of %s, not %s' % [what, std.join(', ', std.objectFields(options)), value],
}
