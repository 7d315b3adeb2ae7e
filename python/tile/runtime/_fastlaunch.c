/* _fastlaunch.c - the per-call launch path of a loaded kernel, in C.
 *
 * A cached @tile.jit call spent most of its host time in Python: ctypes'
 * marshalling of cuLaunchKernel's eleven arguments alone took 8.8 us of
 * 16.7 on the H200's host (python/tools/bench_launch.py --breakdown).
 * This module does what runtime.launcher.Kernel.launch_pointers and
 * jit.JITFunction.__call__ do, for the common case: the arguments of one
 * compiled signature (torch tensors of its shapes and dtypes on its
 * device, contiguous and 16-byte aligned; constants equal to its own),
 * outputs allocated by torch or given with out=. Anything else (another
 * signature, another array type, a view, a bad argument) returns
 * NotImplemented and the Python path runs, which looks the signature up,
 * compiles, or raises the located error. So this file holds no policy:
 * what makes a call valid is decided in Python; this one only recognises
 * the calls that certainly are.
 *
 * It needs no CUDA header or library: runtime.native compiles it with the
 * host's C compiler on first use (as Triton builds its launchers) and hands
 * it the addresses of the driver's cuLaunchKernel and cuLaunchKernelEx
 * (for launches in thread-block clusters and dependent ones), which ctypes
 * already resolved.
 * Without a C compiler or Python's headers the ctypes path runs.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef int (*LaunchKernelFn)(void *function, unsigned gridX, unsigned gridY,
                              unsigned gridZ, unsigned blockX, unsigned blockY,
                              unsigned blockZ, unsigned sharedBytes,
                              void *stream, void **params, void **extra);

typedef int (*StreamIsCapturingFn)(void *stream, int *status);

/* cuLaunchKernelEx's configuration, laid out as cuda.h's CUlaunchConfig,
 * CUlaunchAttribute and CUlaunchAttributeValue (CUDA 13's cuda.h; LP64): the
 * attribute's 64-byte value union, 8-byte aligned by its pointer members,
 * at offset 8 (after the 4-byte id and its 4 bytes of padding), 72 bytes
 * in all; the config's stream at 32, attributes at 40, count at 48, 56
 * bytes. The asserts below hold the mirror to these numbers (as the ctypes
 * structs in runtime/driver.py are held by the tests); compiled with
 * -DTILE_FASTLAUNCH_CHECK_CUDA_H and cuda.h on the include path (the
 * tests do, where the header is there) they are compared with cuda.h's
 * own types too. */
typedef union {
  char pad[64];
  struct {
    unsigned x, y, z;
  } clusterDim;
  int programmaticStreamSerializationAllowed;
  void *align; /* cuda.h's members with pointers (an event, a window's base) */
} LaunchAttributeValue;

typedef struct {
  int id; /* CUlaunchAttributeID, an enum */
  char pad[8 - sizeof(int)];
  LaunchAttributeValue value;
} LaunchAttribute;

typedef struct {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  void *hStream;
  LaunchAttribute *attrs;
  unsigned numAttrs;
} LaunchConfig;

/* CUlaunchAttributeID's CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION and
 * CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION (a dependent
 * launch: it may start while the launch before it finishes). */
#define CLUSTER_DIMENSION_ATTRIBUTE 4
#define PROGRAMMATIC_STREAM_SERIALIZATION_ATTRIBUTE 6

/* A compile-time assertion in C99 (-std=c99: no _Static_assert). */
#define LAYOUT_ASSERT(cond, name) typedef char layout_##name[(cond) ? 1 : -1]
LAYOUT_ASSERT(sizeof(LaunchAttributeValue) == 64, value_size);
LAYOUT_ASSERT(offsetof(LaunchAttributeValue, clusterDim) == 0, cluster_dim);
LAYOUT_ASSERT(offsetof(LaunchAttributeValue,
                       programmaticStreamSerializationAllowed) == 0,
              serialization_allowed);
LAYOUT_ASSERT(sizeof(LaunchAttribute) == 72, attribute_size);
LAYOUT_ASSERT(offsetof(LaunchAttribute, value) == 8, attribute_value);
LAYOUT_ASSERT(sizeof(LaunchConfig) == 56, config_size);
LAYOUT_ASSERT(offsetof(LaunchConfig, sharedMemBytes) == 24, config_smem);
LAYOUT_ASSERT(offsetof(LaunchConfig, hStream) == 32, config_stream);
LAYOUT_ASSERT(offsetof(LaunchConfig, attrs) == 40, config_attrs);
LAYOUT_ASSERT(offsetof(LaunchConfig, numAttrs) == 48, config_num_attrs);

#ifdef TILE_FASTLAUNCH_CHECK_CUDA_H
#include <cuda.h>
#define SAME_AS_CUDA_H(mine, theirs, name)                                     \
  LAYOUT_ASSERT(sizeof(mine) == sizeof(theirs), name##_size)
#define SAME_OFFSET(mine, theirs, field, name)                                 \
  LAYOUT_ASSERT(offsetof(mine, field) == offsetof(theirs, field), name)
SAME_AS_CUDA_H(LaunchAttributeValue, CUlaunchAttributeValue, cuda_value);
SAME_AS_CUDA_H(LaunchAttribute, CUlaunchAttribute, cuda_attribute);
SAME_AS_CUDA_H(LaunchConfig, CUlaunchConfig, cuda_config);
SAME_OFFSET(LaunchAttributeValue, CUlaunchAttributeValue, clusterDim,
            cuda_cluster_dim);
SAME_OFFSET(LaunchAttributeValue, CUlaunchAttributeValue,
            programmaticStreamSerializationAllowed, cuda_serialization_allowed);
LAYOUT_ASSERT(sizeof(((LaunchAttributeValue *)0)
                         ->programmaticStreamSerializationAllowed) ==
                  sizeof(((CUlaunchAttributeValue *)0)
                             ->programmaticStreamSerializationAllowed),
              cuda_serialization_allowed_size);
SAME_OFFSET(LaunchAttribute, CUlaunchAttribute, value, cuda_attribute_value);
SAME_OFFSET(LaunchConfig, CUlaunchConfig, gridDimX, cuda_grid_x);
SAME_OFFSET(LaunchConfig, CUlaunchConfig, blockDimX, cuda_block_x);
SAME_OFFSET(LaunchConfig, CUlaunchConfig, sharedMemBytes, cuda_smem);
SAME_OFFSET(LaunchConfig, CUlaunchConfig, hStream, cuda_stream);
SAME_OFFSET(LaunchConfig, CUlaunchConfig, attrs, cuda_attrs);
SAME_OFFSET(LaunchConfig, CUlaunchConfig, numAttrs, cuda_num_attrs);
LAYOUT_ASSERT(sizeof(CUlaunchAttributeID) == sizeof(int), cuda_id);
LAYOUT_ASSERT(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION ==
                  CLUSTER_DIMENSION_ATTRIBUTE,
              cuda_cluster_attribute);
LAYOUT_ASSERT(CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION ==
                  PROGRAMMATIC_STREAM_SERIALIZATION_ATTRIBUTE,
              cuda_serialization_attribute);
#endif

typedef int (*LaunchKernelExFn)(const LaunchConfig *config, void *function,
                                void **params, void **extra);

enum SlotKind { SLOT_IN = 0, SLOT_OUT = 1, SLOT_SCRATCH = 2, SLOT_TMAP = 3 };

/* Where a launch argument or a tensor map's address comes from. */
typedef struct {
  int kind;
  int index;
} Slot;

typedef struct {
  void *function;
  unsigned grid[3], block[3], smem;
  /* A launch in thread-block clusters or a dependent one: cuLaunchKernelEx
   * with `config`, built when the kernel is loaded, its attributes the
   * cluster's dimensions and/or programmatic stream serialization; only
   * its stream is set per call. Else cuLaunchKernel. */
  int launchEx;
  LaunchConfig config;
  LaunchAttribute attributes[2]; /* config.attrs points here */
  int numSlots;
  Slot *slots;
  uint64_t *values;
  void **params;
} Launch;

typedef struct {
  Slot source;            /* an input, output or scratch buffer */
  uint64_t lastAddress;   /* the address last described, 0 = none */
  uint64_t lastDescriptor;
} TensorMap;

/* A tensor argument: its position in the call, shape and dtype. */
struct InputSpec {
  Py_ssize_t position;
  PyObject *shape, *dtype;
};

/* A constant argument (a compile-time value of the trace). */
struct ConstantSpec {
  Py_ssize_t position;
  PyObject *value;
};

/* An output: its shape and dtype, and the call that allocates it:
 * make(*stack[:numArgs], **kwnames) with stack[0] the call's argument
 * `like` when like >= 0 (torch.empty_like of an input of its shape and
 * dtype: cheaper than torch.empty's keyword parsing). */
struct OutputSpec {
  PyObject *shape, *dtype;
  PyObject *make;
  Py_ssize_t like;
  PyObject **stack;
  Py_ssize_t numArgs;
  PyObject *kwnames; /* or NULL */
  Py_ssize_t numStack;
};

typedef struct {
  PyObject_HEAD
  LaunchKernelFn launchKernel;
  LaunchKernelExFn launchKernelEx; /* NULL: no launch needs it */
  StreamIsCapturingFn streamIsCapturing; /* NULL: never capturing */
  int numLaunches;
  Launch *launches;
  int numTensorMaps;
  TensorMap *tensorMaps;
  int numScratch;
  uint64_t *scratch; /* for scratchStream */
  uint64_t scratchStream;
  int haveScratch;
  PyObject *describeTensorMap; /* (j, address) -> descriptor address */
  PyObject *scratchOn; /* (stream, capturing) -> sequence of scratch addresses */
  PyObject *onError;           /* (code, launch index, retried) -> retry? */
  /* The checked call (set_call; before it, call() returns NotImplemented). */
  int callReady;
  Py_ssize_t numParams;
  int numInputs, numConstants, numOutputs;
  struct InputSpec *inputs;
  struct ConstantSpec *constants;
  struct OutputSpec *outputs;
  PyObject *tensorType;    /* torch.Tensor */
  long deviceIndex;
  PyObject *deviceIndexObject;
  PyObject *currentStream; /* device index -> raw stream */
} Launcher;

static PyObject *strIsContiguous, *strDataPtr, *strNbytes, *strShape, *strDtype,
    *strGetDevice;

static void freeLaunches(Launcher *self) {
  for (int i = 0; i < self->numLaunches; ++i) {
    PyMem_Free(self->launches[i].slots);
    PyMem_Free(self->launches[i].values);
    PyMem_Free(self->launches[i].params);
  }
  PyMem_Free(self->launches);
  self->launches = NULL;
  self->numLaunches = 0;
}

static void clearCall(Launcher *self) {
  for (int i = 0; self->inputs && i < self->numInputs; ++i) {
    Py_XDECREF(self->inputs[i].shape);
    Py_XDECREF(self->inputs[i].dtype);
  }
  for (int i = 0; self->constants && i < self->numConstants; ++i)
    Py_XDECREF(self->constants[i].value);
  for (int k = 0; self->outputs && k < self->numOutputs; ++k) {
    struct OutputSpec *o = &self->outputs[k];
    Py_XDECREF(o->shape);
    Py_XDECREF(o->dtype);
    Py_XDECREF(o->make);
    Py_XDECREF(o->kwnames);
    for (Py_ssize_t j = 0; o->stack && j < o->numStack; ++j)
      if (j != 0 || o->like < 0)
        Py_XDECREF(o->stack[j]);
    PyMem_Free(o->stack);
  }
  PyMem_Free(self->inputs);
  PyMem_Free(self->constants);
  PyMem_Free(self->outputs);
  self->inputs = NULL;
  self->constants = NULL;
  self->outputs = NULL;
  self->numInputs = self->numConstants = self->numOutputs = 0;
  self->callReady = 0;
  Py_CLEAR(self->tensorType);
  Py_CLEAR(self->currentStream);
  Py_CLEAR(self->deviceIndexObject);
}

static void Launcher_dealloc(Launcher *self) {
  freeLaunches(self);
  PyMem_Free(self->tensorMaps);
  PyMem_Free(self->scratch);
  Py_XDECREF(self->describeTensorMap);
  Py_XDECREF(self->scratchOn);
  Py_XDECREF(self->onError);
  clearCall(self);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

/* (kind, index) from a Python pair. */
static int parseSlot(PyObject *pair, Slot *slot) {
  if (!PyArg_ParseTuple(pair, "ii", &slot->kind, &slot->index))
    return -1;
  if (slot->kind < SLOT_IN || slot->kind > SLOT_TMAP || slot->index < 0) {
    PyErr_SetString(PyExc_ValueError, "bad launch slot");
    return -1;
  }
  return 0;
}

/* Launcher(launch_kernel_address, launch_kernel_ex_address,
 *          stream_is_capturing_address, launches, tensor_maps, num_scratch,
 *          describe_tensor_map, scratch_on, on_error)
 * launches: [(function, (gx, gy, gz), (bx, by, bz), smem, (cx, cy, cz),
 *             dependent, [(kind, index)])], the cluster (1, 1, 1) for a
 *   plain launch, dependent true for a programmatic dependent launch
 *   (launch_kernel_ex_address may be 0 where no launch is in clusters or
 *   dependent);
 * tensor_maps: [(kind, index)] (where each map's address comes from). */
static int Launcher_init(Launcher *self, PyObject *args, PyObject *kwargs) {
  unsigned long long address, exAddress, capturingAddress;
  PyObject *launches, *tensorMaps, *describe, *scratchOn, *onError;
  int numScratch;
  if (!PyArg_ParseTuple(args, "KKKOOiOOO", &address, &exAddress,
                        &capturingAddress, &launches, &tensorMaps, &numScratch,
                        &describe, &scratchOn, &onError))
    return -1;
  if (!address || !PyList_Check(launches) || !PyList_Check(tensorMaps) ||
      numScratch < 0) {
    PyErr_SetString(PyExc_ValueError, "Launcher: bad arguments");
    return -1;
  }
  self->launchKernel = (LaunchKernelFn)(uintptr_t)address;
  self->launchKernelEx = (LaunchKernelExFn)(uintptr_t)exAddress;
  self->streamIsCapturing = (StreamIsCapturingFn)(uintptr_t)capturingAddress;
  Py_ssize_t n = PyList_GET_SIZE(launches);
  self->launches = PyMem_Calloc(n ? n : 1, sizeof(Launch));
  if (!self->launches)
    return PyErr_NoMemory(), -1;
  self->numLaunches = (int)n;
  for (Py_ssize_t i = 0; i < n; ++i) {
    Launch *l = &self->launches[i];
    unsigned long long function;
    unsigned cluster[3];
    int dependent;
    PyObject *slots;
    if (!PyArg_ParseTuple(PyList_GET_ITEM(launches, i), "K(III)(III)I(III)pO",
                          &function, &l->grid[0], &l->grid[1], &l->grid[2],
                          &l->block[0], &l->block[1], &l->block[2], &l->smem,
                          &cluster[0], &cluster[1], &cluster[2], &dependent,
                          &slots))
      return -1;
    if (!cluster[0] || !cluster[1] || !cluster[2]) {
      PyErr_SetString(PyExc_ValueError, "Launcher: a cluster dimension is 0");
      return -1;
    }
    int clustered = cluster[0] != 1 || cluster[1] != 1 || cluster[2] != 1;
    l->launchEx = clustered || dependent;
    if (l->launchEx) {
      if (!self->launchKernelEx) {
        PyErr_SetString(PyExc_ValueError,
                        clustered
                            ? "Launcher: a launch in clusters needs "
                              "cuLaunchKernelEx"
                            : "Launcher: a dependent launch needs "
                              "cuLaunchKernelEx");
        return -1;
      }
      /* The Launch stays where it is (self->launches is not reallocated),
       * so the config may point at its attributes: the cluster first, as
       * tile-run orders them. */
      memset(&l->config, 0, sizeof l->config);
      memset(l->attributes, 0, sizeof l->attributes);
      unsigned numAttrs = 0;
      if (clustered) {
        LaunchAttribute *a = &l->attributes[numAttrs++];
        a->id = CLUSTER_DIMENSION_ATTRIBUTE;
        a->value.clusterDim.x = cluster[0];
        a->value.clusterDim.y = cluster[1];
        a->value.clusterDim.z = cluster[2];
      }
      if (dependent) {
        LaunchAttribute *a = &l->attributes[numAttrs++];
        a->id = PROGRAMMATIC_STREAM_SERIALIZATION_ATTRIBUTE;
        a->value.programmaticStreamSerializationAllowed = 1;
      }
      l->config.gridDimX = l->grid[0];
      l->config.gridDimY = l->grid[1];
      l->config.gridDimZ = l->grid[2];
      l->config.blockDimX = l->block[0];
      l->config.blockDimY = l->block[1];
      l->config.blockDimZ = l->block[2];
      l->config.sharedMemBytes = l->smem;
      l->config.hStream = NULL; /* set per call */
      l->config.attrs = l->attributes;
      l->config.numAttrs = numAttrs;
    }
    if (!PyList_Check(slots)) {
      PyErr_SetString(PyExc_ValueError, "Launcher: slots must be a list");
      return -1;
    }
    l->function = (void *)(uintptr_t)function;
    l->numSlots = (int)PyList_GET_SIZE(slots);
    int m = l->numSlots + 1;
    l->slots = PyMem_Calloc(m, sizeof(Slot));
    l->values = PyMem_Calloc(m, sizeof(uint64_t));
    /* NULL-terminated: the driver reads only the kernel's parameters, and
     * the tests' stand-in driver counts them by the terminator. */
    l->params = PyMem_Calloc(m, sizeof(void *));
    if (!l->slots || !l->values || !l->params)
      return PyErr_NoMemory(), -1;
    for (int s = 0; s < l->numSlots; ++s) {
      if (parseSlot(PyList_GET_ITEM(slots, s), &l->slots[s]) < 0)
        return -1;
      l->params[s] = &l->values[s];
    }
  }
  Py_ssize_t t = PyList_GET_SIZE(tensorMaps);
  self->tensorMaps = PyMem_Calloc(t ? t : 1, sizeof(TensorMap));
  if (!self->tensorMaps)
    return PyErr_NoMemory(), -1;
  self->numTensorMaps = (int)t;
  for (Py_ssize_t j = 0; j < t; ++j)
    if (parseSlot(PyList_GET_ITEM(tensorMaps, j), &self->tensorMaps[j].source) < 0)
      return -1;
  self->numScratch = numScratch;
  self->scratch = PyMem_Calloc(numScratch ? numScratch : 1, sizeof(uint64_t));
  if (!self->scratch)
    return PyErr_NoMemory(), -1;
  Py_INCREF(describe);
  Py_INCREF(scratchOn);
  Py_INCREF(onError);
  self->describeTensorMap = describe;
  self->scratchOn = scratchOn;
  self->onError = onError;
  return 0;
}

/* The address of a slot's buffer; 0 with an exception set on failure. */
/* The addresses one launchAll resolves slots from: its own copies, since
 * a Python callback (a tensor map, scratch, an error) may let another
 * thread's call of this launcher change the launcher's caches meanwhile. */
typedef struct {
  const uint64_t *in, *out, *scratch, *tmaps;
  int numIn, numOut;
} Addresses;

static int resolve(Launcher *self, Slot slot, const Addresses *at,
                   uint64_t *value) {
  switch (slot.kind) {
  case SLOT_IN:
    if (slot.index < at->numIn)
      return *value = at->in[slot.index], 0;
    break;
  case SLOT_OUT:
    if (slot.index < at->numOut)
      return *value = at->out[slot.index], 0;
    break;
  case SLOT_SCRATCH:
    if (slot.index < self->numScratch)
      return *value = at->scratch[slot.index], 0;
    break;
  case SLOT_TMAP:
    if (at->tmaps && slot.index < self->numTensorMaps)
      return *value = at->tmaps[slot.index], 0;
    break;
  }
  PyErr_SetString(PyExc_IndexError, "launch slot out of range");
  return -1;
}

/* The scratch buffers for a launch on `stream`: per stream, kept, except
 * while the stream captures a CUDA graph, when Python allocates them for
 * this launch from torch's allocator (the graph's pool) and they are not
 * kept. */
static int capturingOn(Launcher *self, uint64_t stream) {
  int status = 0;
  return self->streamIsCapturing &&
         !self->streamIsCapturing((void *)(uintptr_t)stream, &status) &&
         status == 1;
}

static int scratchFor(Launcher *self, uint64_t stream, int capturing) {
  if (!self->numScratch)
    return 0;
  if (!capturing && self->haveScratch && self->scratchStream == stream)
    return 0;
  PyObject *list = PyObject_CallFunction(self->scratchOn, "KO",
                                         (unsigned long long)stream,
                                         capturing ? Py_True : Py_False);
  if (!list)
    return -1;
  PyObject *seq = PySequence_Fast(list, "scratch_on must return a sequence");
  Py_DECREF(list);
  if (!seq)
    return -1;
  self->haveScratch = 0;
  if (PySequence_Fast_GET_SIZE(seq) != self->numScratch) {
    Py_DECREF(seq);
    PyErr_SetString(PyExc_ValueError, "scratch_on returned the wrong count");
    return -1;
  }
  for (int i = 0; i < self->numScratch; ++i) {
    self->scratch[i] =
        PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(seq, i));
    if (PyErr_Occurred()) {
      Py_DECREF(seq);
      return -1;
    }
  }
  Py_DECREF(seq);
  self->scratchStream = stream;
  self->haveScratch = !capturing;
  return 0;
}

/* Every launch on these pointers, in order; -1 with an exception set. */
static int launchAll(Launcher *self, const uint64_t *in, int numIn,
                     const uint64_t *out, int numOut, uint64_t stream) {
  /* Asked only of kernels that have scratch or tensor maps. */
  int capturing = (self->numScratch || self->numTensorMaps) &&
                  capturingOn(self, stream);
  if (scratchFor(self, stream, capturing) < 0)
    return -1;
  int status = -1;
  uint64_t small[32];
  size_t needed = (size_t)self->numScratch + (size_t)self->numTensorMaps;
  uint64_t *local = small;
  if (needed > 32) {
    local = PyMem_Malloc(needed * sizeof(uint64_t));
    if (!local)
      return PyErr_NoMemory(), -1;
  }
  uint64_t *scratch = local, *tmapValues = local + self->numScratch;
  memcpy(scratch, self->scratch, self->numScratch * sizeof(uint64_t));
  Addresses at = {in, out, scratch, NULL, numIn, numOut};
  for (int j = 0; j < self->numTensorMaps; ++j) {
    TensorMap *m = &self->tensorMaps[j];
    uint64_t address;
    if (resolve(self, m->source, &at, &address) < 0)
      goto done;
    if (capturing || address != m->lastAddress || !m->lastAddress) {
      /* Python checks the alignment, encodes and caches the descriptor
       * (and, while a graph is captured, keeps it for good). Every launch
       * of this kernel comes here, so the one descriptor kept per map is
       * the one Python gave last for it: never a slot that Python has
       * since reused for another address. */
      PyObject *r = PyObject_CallFunction(self->describeTensorMap, "iKK", j,
                                          (unsigned long long)address,
                                          (unsigned long long)stream);
      if (!r)
        goto done;
      uint64_t descriptor = PyLong_AsUnsignedLongLong(r);
      Py_DECREF(r);
      if (PyErr_Occurred())
        goto done;
      m->lastAddress = address;
      m->lastDescriptor = descriptor;
      tmapValues[j] = descriptor;
    } else {
      tmapValues[j] = m->lastDescriptor;
    }
  }
  at.tmaps = tmapValues;
  for (int i = 0; i < self->numLaunches; ++i) {
    Launch *l = &self->launches[i];
    int retried = 0;
    for (;;) {
      /* Filled right before the launch, with no Python in between (the
       * driver copies the parameters, and reads the config, in the call;
       * the GIL is held throughout, so no other thread's call of this
       * launcher refills them meanwhile). */
      for (int s = 0; s < l->numSlots; ++s)
        if (resolve(self, l->slots[s], &at, &l->values[s]) < 0)
          goto done;
      int code;
      if (l->launchEx) {
        l->config.hStream = (void *)(uintptr_t)stream;
        code = self->launchKernelEx(&l->config, l->function, l->params, NULL);
      } else {
        code = self->launchKernel(
            l->function, l->grid[0], l->grid[1], l->grid[2], l->block[0],
            l->block[1], l->block[2], l->smem, (void *)(uintptr_t)stream,
            l->params, NULL);
      }
      if (!code)
        break;
      /* Python names the error (and binds the context for a thread that
       * has not used CUDA yet, asking for one more try). */
      PyObject *r = PyObject_CallFunction(self->onError, "iii", code, i, retried);
      if (!r)
        goto done;
      int retry = PyObject_IsTrue(r);
      Py_DECREF(r);
      if (retry < 0)
        goto done;
      if (!retry || retried) {
        PyErr_Format(PyExc_RuntimeError, "%s failed (%d)",
                     l->launchEx ? "cuLaunchKernelEx" : "cuLaunchKernel", code);
        goto done;
      }
      retried = 1;
    }
  }
  status = 0;
done:
  if (local != small)
    PyMem_Free(local);
  return status;
}

/* Up to `max` integers from a sequence into `values`; the count, or -1. */
static Py_ssize_t addresses(PyObject *sequence, uint64_t *values, Py_ssize_t max,
                            const char *what) {
  PyObject *seq = PySequence_Fast(sequence, what);
  if (!seq)
    return -1;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  if (n > max) {
    Py_DECREF(seq);
    PyErr_Format(PyExc_ValueError, "too many %s", what);
    return -1;
  }
  for (Py_ssize_t i = 0; i < n; ++i) {
    values[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(seq, i));
    if (PyErr_Occurred()) {
      Py_DECREF(seq);
      return -1;
    }
  }
  Py_DECREF(seq);
  return n;
}

#define MAX_BUFFERS 64

/* launch_pointers(in_ptrs, out_ptrs, stream) */
static PyObject *Launcher_launch_pointers(Launcher *self, PyObject *args) {
  PyObject *inSeq, *outSeq;
  unsigned long long stream;
  if (!PyArg_ParseTuple(args, "OOK", &inSeq, &outSeq, &stream))
    return NULL;
  uint64_t in[MAX_BUFFERS], out[MAX_BUFFERS];
  Py_ssize_t numIn = addresses(inSeq, in, MAX_BUFFERS, "input pointers");
  if (numIn < 0)
    return NULL;
  Py_ssize_t numOut = addresses(outSeq, out, MAX_BUFFERS, "output pointers");
  if (numOut < 0)
    return NULL;
  if (launchAll(self, in, (int)numIn, out, (int)numOut, stream) < 0)
    return NULL;
  Py_RETURN_NONE;
}

/* One output's allocation: (shape, dtype, make, like, args, kwargs). */
static int parseOutput(PyObject *item, struct OutputSpec *o) {
  PyObject *shape, *dtype, *make, *args, *kwargs;
  Py_ssize_t like;
  if (!PyArg_ParseTuple(item, "OOOnO!O", &shape, &dtype, &make, &like,
                        &PyTuple_Type, &args, &kwargs))
    return -1;
  if (kwargs != Py_None && !PyDict_Check(kwargs)) {
    PyErr_SetString(PyExc_TypeError, "an output's kwargs must be a dict");
    return -1;
  }
  o->like = like;
  o->shape = PySequence_Tuple(shape);
  if (!o->shape)
    return -1;
  Py_INCREF(dtype);
  Py_INCREF(make);
  o->dtype = dtype;
  o->make = make;
  Py_ssize_t first = like >= 0 ? 1 : 0;
  Py_ssize_t numKwargs = kwargs == Py_None ? 0 : PyDict_GET_SIZE(kwargs);
  o->numArgs = first + PyTuple_GET_SIZE(args);
  o->numStack = o->numArgs + numKwargs;
  o->stack = PyMem_Calloc(o->numStack ? o->numStack : 1, sizeof(PyObject *));
  if (!o->stack)
    return PyErr_NoMemory(), -1;
  for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(args); ++j) {
    o->stack[first + j] = PyTuple_GET_ITEM(args, j);
    Py_INCREF(o->stack[first + j]);
  }
  if (numKwargs) {
    o->kwnames = PyTuple_New(numKwargs);
    if (!o->kwnames)
      return -1;
    PyObject *key, *value;
    Py_ssize_t pos = 0, j = 0;
    while (PyDict_Next(kwargs, &pos, &key, &value)) {
      Py_INCREF(key);
      PyTuple_SET_ITEM(o->kwnames, j, key);
      Py_INCREF(value);
      o->stack[o->numArgs + j] = value;
      ++j;
    }
  }
  return 0;
}

/* set_call(num_params, tensor_type, inputs, constants, outputs,
 *          device_index, current_stream) enables call():
 *   inputs: [(position, shape, dtype)] (torch tensors of exactly this
 *     shape and dtype, on the device);
 *   constants: [(position, value)] (arguments equal to these, of their type);
 *   outputs: [(shape, dtype, make, like, args, kwargs)] (see OutputSpec). */
static PyObject *Launcher_set_call(Launcher *self, PyObject *args) {
  Py_ssize_t numParams;
  PyObject *tensorType, *inputs, *constants, *outputs, *currentStream;
  long deviceIndex;
  if (!PyArg_ParseTuple(args, "nOO!O!O!lO", &numParams, &tensorType,
                        &PyList_Type, &inputs, &PyList_Type, &constants,
                        &PyList_Type, &outputs, &deviceIndex, &currentStream))
    return NULL;
  clearCall(self);
  Py_ssize_t n = PyList_GET_SIZE(inputs), c = PyList_GET_SIZE(constants),
             m = PyList_GET_SIZE(outputs);
  if (n > MAX_BUFFERS || m > MAX_BUFFERS || m < 1 || numParams < n + c) {
    PyErr_SetString(PyExc_ValueError, "set_call: bad counts");
    return NULL;
  }
  self->inputs = PyMem_Calloc(n ? n : 1, sizeof(struct InputSpec));
  self->constants = PyMem_Calloc(c ? c : 1, sizeof(struct ConstantSpec));
  self->outputs = PyMem_Calloc(m, sizeof(struct OutputSpec));
  if (!self->inputs || !self->constants || !self->outputs)
    return PyErr_NoMemory();
  for (Py_ssize_t i = 0; i < n; ++i) {
    struct InputSpec *in = &self->inputs[i];
    PyObject *shape, *dtype;
    if (!PyArg_ParseTuple(PyList_GET_ITEM(inputs, i), "nOO", &in->position,
                          &shape, &dtype))
      return NULL;
    self->numInputs = (int)i + 1; /* clearCall releases what is set */
    in->shape = PySequence_Tuple(shape);
    if (!in->shape)
      return NULL;
    Py_INCREF(dtype);
    in->dtype = dtype;
  }
  for (Py_ssize_t i = 0; i < c; ++i) {
    struct ConstantSpec *k = &self->constants[i];
    PyObject *value;
    if (!PyArg_ParseTuple(PyList_GET_ITEM(constants, i), "nO", &k->position,
                          &value))
      return NULL;
    Py_INCREF(value);
    k->value = value;
    self->numConstants = (int)i + 1;
  }
  for (Py_ssize_t k = 0; k < m; ++k) {
    self->numOutputs = (int)k + 1;
    if (parseOutput(PyList_GET_ITEM(outputs, k), &self->outputs[k]) < 0)
      return NULL;
  }
  for (Py_ssize_t i = 0; i < n; ++i)
    if (self->inputs[i].position < 0 || self->inputs[i].position >= numParams)
      return PyErr_SetString(PyExc_ValueError, "set_call: bad position"), NULL;
  for (Py_ssize_t i = 0; i < c; ++i)
    if (self->constants[i].position < 0 ||
        self->constants[i].position >= numParams)
      return PyErr_SetString(PyExc_ValueError, "set_call: bad position"), NULL;
  for (Py_ssize_t k = 0; k < m; ++k)
    if (self->outputs[k].like >= numParams)
      return PyErr_SetString(PyExc_ValueError, "set_call: bad position"), NULL;
  Py_INCREF(tensorType);
  Py_INCREF(currentStream);
  self->tensorType = tensorType;
  self->currentStream = currentStream;
  self->deviceIndex = deviceIndex;
  self->deviceIndexObject = PyLong_FromLong(deviceIndex);
  if (!self->deviceIndexObject)
    return NULL;
  self->numParams = numParams;
  self->callReady = 1;
  Py_RETURN_NONE;
}

/* The integer a method of `x` returns; -1 with an exception set. */
static int callForAddress(PyObject *x, PyObject *method, uint64_t *value) {
  PyObject *r = PyObject_CallMethodNoArgs(x, method);
  if (!r)
    return -1;
  *value = PyLong_AsUnsignedLongLong(r);
  Py_DECREF(r);
  return PyErr_Occurred() ? -1 : 0;
}

/* 1: x is a torch tensor (exactly) of this shape and dtype on the device,
 * contiguous and 16-byte aligned, its address in *ptr; 0: it is not (the
 * Python path decides); -1: error. */
static int fits(Launcher *self, PyObject *x, PyObject *shape, PyObject *dtype,
                uint64_t *ptr) {
  if ((PyObject *)Py_TYPE(x) != self->tensorType)
    return 0;
  PyObject *got = PyObject_GetAttr(x, strDtype);
  if (!got)
    return -1;
  int same = got == dtype;
  Py_DECREF(got);
  if (!same)
    return 0;
  got = PyObject_GetAttr(x, strShape);
  if (!got)
    return -1;
  same = PyObject_RichCompareBool(got, shape, Py_EQ);
  Py_DECREF(got);
  if (same <= 0)
    return same;
  got = PyObject_CallMethodNoArgs(x, strGetDevice); /* -1 on the CPU */
  if (!got)
    return -1;
  long device = PyLong_AsLong(got);
  Py_DECREF(got);
  if (device == -1 && PyErr_Occurred())
    return -1;
  if (device != self->deviceIndex)
    return 0;
  got = PyObject_CallMethodNoArgs(x, strIsContiguous);
  if (!got)
    return -1;
  same = got == Py_True;
  Py_DECREF(got);
  if (!same)
    return 0;
  if (callForAddress(x, strDataPtr, ptr) < 0)
    return -1;
  return *ptr % 16 == 0;
}

/* A tensor's size in bytes (its `nbytes`); -1: error. */
static int byteSize(PyObject *x, uint64_t *size) {
  PyObject *r = PyObject_GetAttr(x, strNbytes);
  if (!r)
    return -1;
  *size = PyLong_AsUnsignedLongLong(r);
  Py_DECREF(r);
  return PyErr_Occurred() ? -1 : 0;
}

/* 1: an output given with out= shares bytes with an input or another
 * output (the Python path raises, naming them); 0: none does; -1: error.
 * All are contiguous (fits), so each spans [address, address + nbytes). */
static int outputsAlias(Launcher *self, PyObject *args, PyObject *outs,
                        const uint64_t *in, const uint64_t *out) {
  uint64_t inSize[MAX_BUFFERS], outSize[MAX_BUFFERS];
  for (int i = 0; i < self->numInputs; ++i)
    if (byteSize(PyTuple_GET_ITEM(args, self->inputs[i].position),
                 &inSize[i]) < 0)
      return -1;
  for (int k = 0; k < self->numOutputs; ++k) {
    if (byteSize(PyTuple_GET_ITEM(outs, k), &outSize[k]) < 0)
      return -1;
    for (int i = 0; i < self->numInputs; ++i)
      if (out[k] < in[i] + inSize[i] && in[i] < out[k] + outSize[k])
        return 1;
    for (int j = 0; j < k; ++j)
      if (out[k] < out[j] + outSize[j] && out[j] < out[k] + outSize[k])
        return 1;
  }
  return 0;
}

/* call(args, out, stream): the outputs, or NotImplemented when the Python
 * path must decide (see the file comment). */
static PyObject *Launcher_call(Launcher *self, PyObject *const *argv,
                               Py_ssize_t argc) {
  if (argc != 3 || !PyTuple_Check(argv[0])) {
    PyErr_SetString(PyExc_TypeError, "call(args: tuple, out, stream)");
    return NULL;
  }
  PyObject *args = argv[0], *out = argv[1], *streamObject = argv[2];
  if (!self->callReady || PyTuple_GET_SIZE(args) != self->numParams)
    Py_RETURN_NOTIMPLEMENTED;
  for (int i = 0; i < self->numConstants; ++i) {
    PyObject *a = PyTuple_GET_ITEM(args, self->constants[i].position);
    PyObject *value = self->constants[i].value;
    if (Py_TYPE(a) != Py_TYPE(value))
      Py_RETURN_NOTIMPLEMENTED;
    int same = PyObject_RichCompareBool(a, value, Py_EQ);
    if (same < 0)
      return NULL;
    if (!same)
      Py_RETURN_NOTIMPLEMENTED;
  }
  uint64_t in[MAX_BUFFERS], outPtrs[MAX_BUFFERS];
  for (int i = 0; i < self->numInputs; ++i) {
    struct InputSpec *spec = &self->inputs[i];
    int ok = fits(self, PyTuple_GET_ITEM(args, spec->position), spec->shape,
                  spec->dtype, &in[i]);
    if (ok < 0)
      return NULL;
    if (!ok)
      Py_RETURN_NOTIMPLEMENTED;
  }
  PyObject *result = NULL;
  if (out == Py_None) {
    result = PyTuple_New(self->numOutputs);
    if (!result)
      return NULL;
    for (int k = 0; k < self->numOutputs; ++k) {
      struct OutputSpec *spec = &self->outputs[k];
      if (spec->like >= 0)
        spec->stack[0] = PyTuple_GET_ITEM(args, spec->like); /* borrowed */
      PyObject *o = PyObject_Vectorcall(spec->make, spec->stack, spec->numArgs,
                                        spec->kwnames);
      if (!o) {
        Py_DECREF(result);
        return NULL;
      }
      PyTuple_SET_ITEM(result, k, o);
      if (callForAddress(o, strDataPtr, &outPtrs[k]) < 0) {
        Py_DECREF(result);
        return NULL;
      }
    }
  } else {
    if ((PyObject *)Py_TYPE(out) == self->tensorType) {
      if (self->numOutputs != 1)
        Py_RETURN_NOTIMPLEMENTED;
      result = PyTuple_Pack(1, out);
    } else if (PyTuple_Check(out) || PyList_Check(out)) {
      result = PySequence_Tuple(out);
    } else {
      Py_RETURN_NOTIMPLEMENTED;
    }
    if (!result)
      return NULL;
    if (PyTuple_GET_SIZE(result) != self->numOutputs) {
      Py_DECREF(result);
      Py_RETURN_NOTIMPLEMENTED;
    }
    for (int k = 0; k < self->numOutputs; ++k) {
      int ok = fits(self, PyTuple_GET_ITEM(result, k), self->outputs[k].shape,
                    self->outputs[k].dtype, &outPtrs[k]);
      if (ok <= 0) {
        Py_DECREF(result);
        if (ok < 0)
          return NULL;
        Py_RETURN_NOTIMPLEMENTED;
      }
    }
    int alias = outputsAlias(self, args, result, in, outPtrs);
    if (alias != 0) {
      Py_DECREF(result);
      if (alias < 0)
        return NULL;
      Py_RETURN_NOTIMPLEMENTED;
    }
  }
  uint64_t stream;
  if (streamObject == Py_None) {
    PyObject *s = PyObject_CallOneArg(self->currentStream, self->deviceIndexObject);
    if (!s) {
      Py_DECREF(result);
      return NULL;
    }
    stream = PyLong_AsUnsignedLongLong(s);
    Py_DECREF(s);
  } else {
    stream = PyLong_AsUnsignedLongLong(streamObject);
  }
  if (PyErr_Occurred() ||
      launchAll(self, in, self->numInputs, outPtrs, self->numOutputs, stream) < 0) {
    Py_DECREF(result);
    return NULL;
  }
  if (self->numOutputs == 1) {
    PyObject *only = PyTuple_GET_ITEM(result, 0);
    Py_INCREF(only);
    Py_DECREF(result);
    return only;
  }
  return result;
}

static PyMethodDef Launcher_methods[] = {
    {"launch_pointers", (PyCFunction)Launcher_launch_pointers, METH_VARARGS,
     "launch_pointers(in_ptrs, out_ptrs, stream): every launch, in order"},
    {"set_call", (PyCFunction)Launcher_set_call, METH_VARARGS,
     "set_call(num_params, tensor_type, inputs, constants, outputs, "
     "device_index, current_stream): enables call()"},
    {"call", (PyCFunction)(void (*)(void))Launcher_call, METH_FASTCALL,
     "call(args, out, stream): the outputs, or NotImplemented"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject LauncherType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "_fastlaunch.Launcher",
    .tp_basicsize = sizeof(Launcher),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A loaded kernel's launches, issued from C",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Launcher_init,
    .tp_dealloc = (destructor)Launcher_dealloc,
    .tp_methods = Launcher_methods,
};

static struct PyModuleDef fastlaunchModule = {
    PyModuleDef_HEAD_INIT, "_fastlaunch",
    "The per-call launch path of tile.runtime, in C (see _fastlaunch.c)", -1,
    NULL};

PyMODINIT_FUNC PyInit__fastlaunch(void) {
  if (PyType_Ready(&LauncherType) < 0)
    return NULL;
  strIsContiguous = PyUnicode_InternFromString("is_contiguous");
  strDataPtr = PyUnicode_InternFromString("data_ptr");
  strNbytes = PyUnicode_InternFromString("nbytes");
  strShape = PyUnicode_InternFromString("shape");
  strDtype = PyUnicode_InternFromString("dtype");
  strGetDevice = PyUnicode_InternFromString("get_device");
  if (!strIsContiguous || !strDataPtr || !strNbytes || !strShape || !strDtype ||
      !strGetDevice)
    return NULL;
  PyObject *module = PyModule_Create(&fastlaunchModule);
  if (!module)
    return NULL;
  Py_INCREF(&LauncherType);
  if (PyModule_AddObject(module, "Launcher", (PyObject *)&LauncherType) < 0) {
    Py_DECREF(&LauncherType);
    Py_DECREF(module);
    return NULL;
  }
  return module;
}
