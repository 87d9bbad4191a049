/*
 * TfIdfVectorizer on integer tokens x (rows, len): every n-gram with
 * min_gram <= n <= max_gram whose tokens are skip + 1 apart (skip <=
 * max_skip; unigrams counted once) and that is in the pool counts at its
 * output column: TF adds 1, TFIDF adds its weight, IDF sets its weight
 * (weights NULL: 1). The pool lists the n-grams grouped by length: those of
 * length n occupy pool[pool_starts[n - 1] .. pool_starts[n]) and have the
 * ids first_id[n - 1], ...; out_index maps an id to its column of y.
 */
#include "onnx_to_c/oc_tensor.h"

OC_API void oc_tfidf(const void *x, int32_t x_dtype, float *y, int32_t rows, int32_t len,
                     int32_t cols, int32_t min_gram, int32_t max_gram, int32_t max_skip,
                     const int64_t *pool, const int32_t *pool_starts, const int32_t *first_id,
                     const int32_t *out_index, const float *weights, int32_t mode) {
  int32_t r, s, d, n, g, j, c;
  for (r = 0; r < rows; r++) {
    float *yr = y + (ptrdiff_t)r * cols;
    for (c = 0; c < cols; c++) yr[c] = 0.0f;
    for (s = 0; s < len; s++) {
      for (d = 1; d <= max_skip + 1; d++) {
        for (n = (min_gram > 1 ? min_gram : 1); n <= max_gram && s + (n - 1) * d < len; n++) {
          if (n == 1 && d > 1) continue;
          for (g = pool_starts[n - 1]; g + n <= pool_starts[n]; g += n) {
            for (j = 0; j < n; j++) {
              if (oc_int_at(x, x_dtype, r * len + s + j * d) != pool[g + j]) break;
            }
            if (j == n) {
              const int32_t id = first_id[n - 1] + (g - pool_starts[n - 1]) / n;
              const float w = weights != NULL ? weights[id] : 1.0f;
              float *yc = yr + out_index[id];
              *yc = mode == 0 ? *yc + 1.0f : (mode == 2 ? *yc + w : w);
            }
          }
        }
      }
    }
  }
}
