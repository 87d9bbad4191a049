"""Keras recurrent layers as tf2onnx exports them when it does not fuse them into an ONNX LSTM or
GRU: the TensorFlow while-loop of keras.backend.rnn becomes an ONNX Loop (tf2onnx's
onnx_opset/controlflow.py, While.version_7 and wire_while_body).

The pattern, per layer (no TensorFlow here: the graphs are written node by node):
- outside the loop: the input made time-major (Transpose), the number of steps read from its shape
  (Shape, Slice, Squeeze, Cast to int32), zero initial states built from the batch size (Shape,
  Slice, Concat, ConstantOfShape), and the loop's first condition: TensorFlow's cond graph inlined
  on the while's initial inputs, `counter < maximum_iterations and time < steps`;
- the Loop: trip count M = maximum_iterations (the static number of steps, int64), the condition
  above, and the carried values time (int32), steps (a loop invariant), then the states;
- the body: the step's input read from the outer time-major input (TensorListGetItem: Gather at
  `time`), the cell, `time + 1`, the new state written to the sequence (TensorListSetItem:
  Identity, a scan output) and the cond graph inlined again on the body's results:
  `And(Less(iteration, maximum_iterations), Less(time + 1, steps))`: a condition computed in the
  body from the counter and constants, not a constant;
- after the loop: the stacked sequence made batch-major again (return_sequences) or its last step
  (Slice, Squeeze: `outputs[-1]`).

Cells as Keras 2 writes them: LSTM (implementation 2: one MatMul per operand, a bias, Split in
four; recurrent activation sigmoid) and GRU (reset_after=True, Keras 2's default: two biases,
`h = z * h_prev + (1 - z) * tanh(x_h + r * (h_prev R_h + b_h))`). Bidirectional runs a second
layer on the input reversed in time (go_backwards: Slice with step -1) and reverses its sequence
back before the Concat.
"""
import numpy as np
from onnx import TensorProto as TP
from onnx import helper

INT64_MAX = np.iinfo(np.int64).max


def _vi(name, elem_type, shape):
    return helper.make_tensor_value_info(name, elem_type, shape)


def register_keras_models(model):
    """Registers the models with generate.py's @model decorator."""

    def glorot(b, shape):
        return b.weight(shape, scale=np.sqrt(2.0 / sum(shape)))

    def lstm_cell(b, p, units, f):
        """Body nodes of an LSTM step: reads p+'x_t', p+'h', p+'c'; writes p+'h_new', p+'c_new'."""
        c = p + "lstm_cell/"
        kernel, rkernel = glorot(b, [f, 4 * units]), glorot(b, [units, 4 * units])
        bias = b.const(np.concatenate([np.zeros(units), np.ones(units), np.zeros(2 * units)]) +
                       b.rng.standard_normal(4 * units) * 0.1)  # unit_forget_bias
        split = b.const(np.full(4, units, np.int64))
        n = helper.make_node
        return [
            n("MatMul", [p + "x_t", kernel], [p + "xk"], name=c + "MatMul"),
            n("MatMul", [p + "h", rkernel], [p + "hk"], name=c + "MatMul_1"),
            n("Add", [p + "xk", p + "hk"], [p + "z0"], name=c + "add"),
            n("Add", [p + "z0", bias], [p + "z"], name=c + "BiasAdd"),
            n("Split", [p + "z", split], [p + "zi", p + "zf", p + "zc", p + "zo"], name=c + "split", axis=1),
            n("Sigmoid", [p + "zi"], [p + "i"], name=c + "Sigmoid"),
            n("Sigmoid", [p + "zf"], [p + "f"], name=c + "Sigmoid_1"),
            n("Mul", [p + "f", p + "c"], [p + "fc"], name=c + "mul"),
            n("Tanh", [p + "zc"], [p + "g"], name=c + "Tanh"),
            n("Mul", [p + "i", p + "g"], [p + "ig"], name=c + "mul_1"),
            n("Add", [p + "fc", p + "ig"], [p + "c_new"], name=c + "add_1"),
            n("Sigmoid", [p + "zo"], [p + "o"], name=c + "Sigmoid_2"),
            n("Tanh", [p + "c_new"], [p + "tc"], name=c + "Tanh_1"),
            n("Mul", [p + "o", p + "tc"], [p + "h_new"], name=c + "mul_2"),
        ]

    def gru_cell(b, p, units, f):
        """Body nodes of a GRU step (reset_after): reads p+'x_t', p+'h'; writes p+'h_new'."""
        c = p + "gru_cell/"
        kernel, rkernel = glorot(b, [f, 3 * units]), glorot(b, [units, 3 * units])
        in_bias = b.const(b.rng.standard_normal(3 * units) * 0.1)
        rec_bias = b.const(b.rng.standard_normal(3 * units) * 0.1)
        split = b.const(np.full(3, units, np.int64))
        one = b.const(np.float32(1.0))
        n = helper.make_node
        return [
            n("MatMul", [p + "x_t", kernel], [p + "mx0"], name=c + "MatMul"),
            n("Add", [p + "mx0", in_bias], [p + "mx"], name=c + "BiasAdd"),
            n("Split", [p + "mx", split], [p + "xz", p + "xr", p + "xh"], name=c + "split", axis=1),
            n("MatMul", [p + "h", rkernel], [p + "mi0"], name=c + "MatMul_1"),
            n("Add", [p + "mi0", rec_bias], [p + "mi"], name=c + "BiasAdd_1"),
            n("Split", [p + "mi", split], [p + "rz", p + "rr", p + "rh"], name=c + "split_1", axis=1),
            n("Add", [p + "xz", p + "rz"], [p + "az"], name=c + "add"),
            n("Sigmoid", [p + "az"], [p + "zg"], name=c + "Sigmoid"),
            n("Add", [p + "xr", p + "rr"], [p + "ar"], name=c + "add_1"),
            n("Sigmoid", [p + "ar"], [p + "r"], name=c + "Sigmoid_1"),
            n("Mul", [p + "r", p + "rh"], [p + "rrh"], name=c + "mul"),
            n("Add", [p + "xh", p + "rrh"], [p + "ah"], name=c + "add_2"),
            n("Tanh", [p + "ah"], [p + "hh"], name=c + "Tanh"),
            n("Mul", [p + "zg", p + "h"], [p + "zh"], name=c + "mul_1"),
            n("Sub", [one, p + "zg"], [p + "omz"], name=c + "sub"),
            n("Mul", [p + "omz", p + "hh"], [p + "ohh"], name=c + "mul_2"),
            n("Add", [p + "zh", p + "ohh"], [p + "h_new"], name=c + "add_3"),
        ]

    def zeros_state(b, x, units, scope):
        """tf.zeros((tf.shape(x)[0], units)): Shape, Slice, Concat, ConstantOfShape."""
        shape = b.node("Shape", [x], name=f"{scope}/Shape")
        batch = b.node("Slice", [shape, b.const([0]), b.const([1]), b.const([0])], name=f"{scope}/strided_slice")
        dims = b.node("Concat", [batch, b.const([units])], name=f"{scope}/zeros/packed", axis=0)
        return b.node("ConstantOfShape", [dims], name=f"{scope}/zeros",
                      value=helper.make_tensor("value", TP.FLOAT, [1], [0.0]))

    def rnn_layer(b, x, kind, units, steps, f, scope, return_sequences, go_backwards=False):
        """One Keras LSTM or GRU layer over x (batch 1 x steps x f) as tf2onnx writes its while
        loop; returns the layer's output (1 x steps x units, or 1 x units)."""
        xt = b.node("Transpose", [x], name=f"{scope}/transpose", perm=[1, 0, 2])
        if go_backwards:
            xt = b.node("Slice", [xt, b.const([-1]), b.const([-INT64_MAX]), b.const([0]), b.const([-1])],
                        name=f"{scope}/ReverseV2")
        shape = b.node("Shape", [xt], name=f"{scope}/Shape_1")
        n0 = b.node("Slice", [shape, b.const([0]), b.const([1]), b.const([0])], name=f"{scope}/strided_slice_1")
        n1 = b.node("Squeeze", [n0, b.const([0])], name=f"{scope}/strided_slice_1__sq")
        n_steps = b.node("Cast", [n1], name=f"{scope}/strided_slice_1__cast", to=TP.INT32)
        states = [zeros_state(b, x, units, f"{scope}/init_h")]
        if kind == "lstm":
            states.append(zeros_state(b, x, units, f"{scope}/init_c"))
        max_iter = b.const(np.array(steps, np.int64), name=f"{scope}/while/maximum_iterations")
        time0 = b.const(np.array(0), name=f"{scope}/time", dtype=np.int32)
        counter0 = b.const(np.array(0, np.int64), name=f"{scope}/while/loop_counter")
        # TensorFlow's cond graph on the while's initial inputs (inline_subgraph in the outer graph).
        c1 = b.node("Less", [counter0, max_iter], name=f"{scope}/while/cond/Less")
        c2 = b.node("Less", [time0, n_steps], name=f"{scope}/while/cond/Less_1")
        cond = b.node("And", [c1, c2], name=f"{scope}/while/cond/LogicalAnd")

        p = f"{scope}/while/"
        one = b.const(np.array(1), name=f"{scope}/while/add/y", dtype=np.int32)
        n = helper.make_node
        nodes = [n("Gather", [xt, p + "time"], [p + "x_t"], name=p + "TensorArrayV2Read/TensorListGetItem", axis=0)]
        nodes += lstm_cell(b, p, units, f) if kind == "lstm" else gru_cell(b, p, units, f)
        nodes += [
            n("Add", [p + "time", one], [p + "time_new"], name=p + "add"),
            n("Identity", [p + "n"], [p + "n_out"], name=p + "Identity_n"),
            n("Identity", [p + "h_new"], [p + "h_seq"], name=p + "TensorArrayV2Write/TensorListSetItem"),
            # the cond graph inlined on the body's results (wire_while_body)
            n("Less", [p + "iteration", max_iter], [p + "cond__Less"], name=p + "cond__/Less"),
            n("Less", [p + "time_new", p + "n"], [p + "cond__Less_1"], name=p + "cond__/Less_1"),
            n("And", [p + "cond__Less", p + "cond__Less_1"], [p + "cond_out"], name=p + "cond__/LogicalAnd"),
        ]
        state_names = ["h", "c"] if kind == "lstm" else ["h"]
        body = helper.make_graph(
            nodes, f"{scope}_while_body",
            [_vi(p + "iteration", TP.INT64, []), _vi(p + "cond", TP.BOOL, []),
             _vi(p + "time", TP.INT32, []), _vi(p + "n", TP.INT32, [])] +
            [_vi(p + s, TP.FLOAT, [1, units]) for s in state_names],
            [_vi(p + "cond_out", TP.BOOL, []), _vi(p + "time_new", TP.INT32, []),
             _vi(p + "n_out", TP.INT32, [])] +
            [_vi(p + s + "_new", TP.FLOAT, [1, units]) for s in state_names] +
            [_vi(p + "h_seq", TP.FLOAT, [1, units])])
        outs = b.node("Loop", [max_iter, cond, time0, n_steps] + states, outputs=3 + len(states),
                      name=f"{scope}/while_loop", body=body)
        seq = outs[-1]  # steps x 1 x units
        if not return_sequences:
            last = b.node("Slice", [seq, b.const([-1]), b.const([INT64_MAX]), b.const([0])],
                          name=f"{scope}/strided_slice_2")
            return b.node("Squeeze", [last, b.const([0])], name=f"{scope}/strided_slice_2__sq")
        if go_backwards:  # Bidirectional reverses the backward layer's sequence back
            seq = b.node("Slice", [seq, b.const([-1]), b.const([-INT64_MAX]), b.const([0]), b.const([-1])],
                         name=f"{scope}/ReverseV2_1")
        return b.node("Transpose", [seq], name=f"{scope}/transpose_1", perm=[1, 0, 2])

    def dense(b, h, units, classes, scope):
        y = b.node("MatMul", [h, glorot(b, [units, classes])], name=f"{scope}/MatMul")
        return b.node("Add", [y, b.bias(classes)], name=f"{scope}/BiasAdd")

    def keras_model(name, kind, return_sequences, doc):
        steps, feat, units = 6, 3, 8

        @model(name, opset=13)
        def _(b):
            x = b.input([1, steps, feat], name="input_1")
            y = rnn_layer(b, x, kind, units, steps, feat, kind, return_sequences)
            if not return_sequences:
                y = dense(b, y, units, 4, "dense")
            b.output(y)
        _.__doc__ = doc

    keras_model("keras_lstm_loop_seq", "lstm", True,
                "tf2onnx's unfused Keras LSTM (return_sequences): Loop with trip count 6 and a condition recomputed in the body (And(Less(iteration,M),Less(time+1,steps))), carrying time, steps, h, c; the step input Gathered at time; Split in four gates")
    keras_model("keras_lstm_loop_last", "lstm", False,
                "tf2onnx's unfused Keras LSTM (last output) + Dense: the Loop of keras_lstm_loop_seq, then Slice/Squeeze of the sequence's last step, MatMul, Add")
    keras_model("keras_gru_loop_seq", "gru", True,
                "tf2onnx's unfused Keras GRU (reset_after, return_sequences): Loop with a condition recomputed in the body from the counter, time and steps; two biases, two Splits in three")
    keras_model("keras_gru_loop_last", "gru", False,
                "tf2onnx's unfused Keras GRU (reset_after, last output) + Dense: the Loop of keras_gru_loop_seq, then the last step and MatMul, Add")

    @model("keras_lstm_stacked_bidir", opset=13)
    def _(b):
        """tf2onnx's unfused Keras Bidirectional(LSTM, return_sequences) stacked on a GRU (last output) + Dense: three Loops with conditions computed in their bodies; the backward layer reads the input reversed (Slice step -1) and its sequence is reversed back before the Concat"""
        steps, feat, units = 5, 3, 6
        x = b.input([1, steps, feat], name="input_1")
        fwd = rnn_layer(b, x, "lstm", units, steps, feat, "bidirectional/forward_lstm", True)
        bwd = rnn_layer(b, x, "lstm", units, steps, feat, "bidirectional/backward_lstm", True, go_backwards=True)
        both = b.node("Concat", [fwd, bwd], name="bidirectional/concat", axis=2)
        y = rnn_layer(b, both, "gru", units, steps, 2 * units, "gru", False)
        b.output(dense(b, y, units, 3, "dense"))
