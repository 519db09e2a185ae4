/* DLPack between C libraries: a producer hands a view of its buffer to a consumer as a DLPack
 * 1.1 managed tensor (DLManagedTensorVersioned: the struct NumPy, PyTorch and JAX exchange),
 * without copying; the consumer takes it in as a view and a buffer of its own, and the
 * producer's memory is freed once, when both are done, whatever order they finish in. A
 * program that includes dlpack.h passes its DLManagedTensorVersioned * to mvs_dlpack_import
 * with a cast: mvs_dl_managed_tensor_versioned is the same struct. (examples/cython/dlpack.pyx
 * hands views to NumPy the same way, through __dlpack__.) */
#include "common.h"

static int frees = 0;

static void producer_free(void *data, void *ctx)
{
    (void)ctx;
    frees++;
    free(data);
}

int main(void)
{
    /* The producer: a 3x4 float64 matrix in malloc'd memory, owned by a buffer. */
    const ptrdiff_t shape[] = {3, 4};
    double *data = malloc(12 * sizeof(double));
    mvs_buffer *buffer, *imported;
    mvs_slice m, t, view;
    mvs_dl_managed_tensor_versioned *tensor;
    int ndim;
    ptrdiff_t itemsize;

    for (int i = 0; i < 12; i++)
        data[i] = i;
    check(mvs_buffer_wrap(data, 12 * sizeof(double), producer_free, NULL, 0, &buffer), "mvs_buffer_wrap");
    check(mvs_buffer_view(buffer, sizeof(double), 2, shape, 'C', &m), "mvs_buffer_view");
    print_view("the producer's m", &m, 2);

    /* It exports m.T: the tensor holds a reference to the buffer, which its deleter gives back. */
    check(mvs_transpose(&m, 2, &t), "mvs_transpose");
    check(mvs_dlpack_export(buffer, &t, 2, MVS_DL_FLOAT, 64, 0, &tensor), "mvs_dlpack_export");
    printf("tensor: DLPack %u.%u, %d-d, shape (%lld, %lld), strides in items (%lld, %lld), type code %d, %d bits\n",
           (unsigned)tensor->version.major, (unsigned)tensor->version.minor, (int)tensor->dl_tensor.ndim,
           (long long)tensor->dl_tensor.shape[0], (long long)tensor->dl_tensor.shape[1],
           (long long)tensor->dl_tensor.strides[0], (long long)tensor->dl_tensor.strides[1],
           tensor->dl_tensor.dtype.code, tensor->dl_tensor.dtype.bits);
    mvs_buffer_release(buffer); /* the producer is done: the tensor keeps the memory */

    /* The consumer: the tensor becomes a view and a buffer that owns the tensor. On failure the
     * tensor would still be ours, and we would call tensor->deleter(tensor) ourselves. */
    check(mvs_dlpack_import(tensor, &view, &ndim, &itemsize, &imported), "mvs_dlpack_import");
    print_view("the consumer's view (m.T, no copy)", &view, ndim);
    printf("same memory: %s; frees so far: %d\n", view.data == (char *)data ? "yes" : "no", frees);
    mvs_buffer_release(imported); /* the consumer is done: the tensor's deleter runs, the memory goes */
    printf("frees after the consumer's release: %d\n", frees);
    return frees == 1 ? 0 : 1;
}
