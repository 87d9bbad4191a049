#!/usr/bin/env node
// Run an ONNX model with ONNX Runtime (CPU, one thread) on raw tensor files.
//
//   node scripts/ort_run.js [--time N] [--shapes] MODEL.onnx IN_1.bin ... IN_k.bin OUT_1.bin ... OUT_m.bin
//
// Inputs and outputs are raw little-endian tensor bytes in graph order (float32, int64,
// int32, int8, uint8, bool as one byte, ...), with dtype and shape taken from the session
// metadata; every input shape must be static.
// --time N: after 3 warm-up runs, run N timed inferences and print `median_ms=X` on stdout.
//           In this mode the output files may be omitted.
// --shapes: print the outputs' actual shapes as `shapes=[[d0,d1,...],...]` on stdout.
// onnxruntime-node is found via $ONNX_TO_C_ORT_DIR/node_modules/onnxruntime-node
// (see scripts/install_ort.sh) or by normal require() resolution.
'use strict';
const fs = require('fs');
const path = require('path');

function die(msg, code = 1) {
  process.stderr.write(`error: ${msg}\n`);
  process.exit(code);
}

function loadOrt() {
  const dir = process.env.ONNX_TO_C_ORT_DIR;
  if (dir) {
    const p = path.resolve(dir, 'node_modules', 'onnxruntime-node');
    if (!fs.existsSync(p)) die(`ONNX_TO_C_ORT_DIR=${dir} has no node_modules/onnxruntime-node (run scripts/install_ort.sh ${dir})`);
    return require(p);
  }
  try {
    return require('onnxruntime-node');
  } catch (e) {
    die('cannot find onnxruntime-node: set ONNX_TO_C_ORT_DIR (see scripts/install_ort.sh)');
  }
}

// ORT tensor type name -> typed array constructor (bool is stored as one byte).
const TYPED = {
  float32: Float32Array, float64: Float64Array,
  int64: BigInt64Array, uint64: BigUint64Array,
  int32: Int32Array, uint32: Uint32Array,
  int16: Int16Array, uint16: Uint16Array,
  int8: Int8Array, uint8: Uint8Array, bool: Uint8Array,
};

function parseArgs(argv) {
  let iters = 0;
  let shapes = false;
  const files = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--time') {
      iters = Number(argv[++i]);
      if (!Number.isInteger(iters) || iters < 1) die('--time needs a positive integer', 2);
    } else if (argv[i] === '--shapes') {
      shapes = true;
    } else if (argv[i].startsWith('--')) {
      die(`unknown option ${argv[i]}`, 2);
    } else {
      files.push(argv[i]);
    }
  }
  if (files.length < 1) die('usage: ort_run.js [--time N] [--shapes] MODEL.onnx IN... OUT...', 2);
  return { iters, shapes, model: files[0], rest: files.slice(1) };
}

function staticShape(meta) {
  if (!meta.isTensor) die(`value ${meta.name} is not a tensor`);
  for (const d of meta.shape) {
    if (typeof d !== 'number' || d < 0) die(`input ${meta.name} has a non-static shape [${meta.shape}]`);
  }
  return meta.shape.slice();
}

function readInput(ort, meta, file) {
  const Ctor = TYPED[meta.type];
  if (!Ctor) die(`input ${meta.name}: unsupported dtype ${meta.type}`);
  const shape = staticShape(meta);
  const count = shape.reduce((a, b) => a * b, 1);
  const bytes = fs.readFileSync(file);
  if (bytes.length !== count * Ctor.BYTES_PER_ELEMENT) {
    die(`${file}: ${bytes.length} bytes, input ${meta.name} (${meta.type} [${shape}]) needs ${count * Ctor.BYTES_PER_ELEMENT}`);
  }
  const buf = new ArrayBuffer(bytes.length);  // copy: Buffer may be unaligned
  new Uint8Array(buf).set(bytes);
  let data = new Ctor(buf);
  if (meta.type === 'bool') data = Uint8Array.from(data, (v) => (v ? 1 : 0));
  return new ort.Tensor(meta.type, data, shape);
}

function writeOutput(tensor, file) {
  const d = tensor.data;
  if (!ArrayBuffer.isView(d)) die(`output of type ${tensor.type} cannot be written as raw bytes`);
  fs.writeFileSync(file, Buffer.from(d.buffer, d.byteOffset, d.byteLength));
}

async function main() {
  const { iters, shapes, model, rest } = parseArgs(process.argv.slice(2));
  const ort = loadOrt();
  const options = {
    executionProviders: ['cpu'],
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
  };
  // On x86-64 without VNNI, ONNX Runtime's uint8 x int8 matrix products
  // saturate pairs of products to 16 bits (a documented limit of its
  // kernels); session.x64quantprecision makes it rewrite int8 weights to
  // uint8 and use its exact uint8 x uint8 kernels there (no effect on other
  // CPUs), so the reference is the model's exact sums. A graph the rewrite
  // leaves without a kernel (an int8 QLinearMatMul with per-column scales,
  // whose int8 x int8 product does not saturate) runs without it.
  let session;
  try {
    session = await ort.InferenceSession.create(model, { ...options, extra: { session: { x64quantprecision: '1' } } });
  } catch (e) {
    session = await ort.InferenceSession.create(model, options);
  }
  const ins = session.inputMetadata;
  const outs = session.outputMetadata;
  const k = ins.length;
  const m = outs.length;
  const withOutputs = rest.length === k + m;
  if (!withOutputs && !(iters && rest.length === k)) {
    die(`model has ${k} inputs and ${m} outputs, got ${rest.length} files`, 2);
  }

  const feeds = {};
  ins.forEach((meta, i) => { feeds[meta.name] = readInput(ort, meta, rest[i]); });

  const results = await session.run(feeds);
  if (withOutputs) outs.forEach((meta, j) => writeOutput(results[meta.name], rest[k + j]));
  if (shapes) process.stdout.write(`shapes=${JSON.stringify(outs.map((meta) => results[meta.name].dims))}\n`);

  if (iters) {
    for (let i = 0; i < 3; i++) await session.run(feeds);
    const times = [];
    for (let i = 0; i < iters; i++) {
      const t0 = process.hrtime.bigint();
      await session.run(feeds);
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    times.sort((a, b) => a - b);
    const mid = times.length >> 1;
    const median = times.length % 2 ? times[mid] : (times[mid - 1] + times[mid]) / 2;
    process.stdout.write(`median_ms=${median.toFixed(4)}\n`);
  }
  await session.release();
}

main().catch((e) => die(String(e && e.message ? e.message : e).split('\n')[0]));
