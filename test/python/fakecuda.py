"""A stand-in for the CUDA driver (tile.runtime.driver.Driver's methods)
that records what the runtime asks of it, and arrays that expose
__cuda_array_interface__ at made-up addresses: the launcher's logic is
tested without a GPU."""

import ctypes

from tile.runtime import driver as real


#: cuLaunchKernel's C signature.
LAUNCH_KERNEL = ctypes.CFUNCTYPE(
    ctypes.c_int, ctypes.c_size_t, *([ctypes.c_uint] * 7), ctypes.c_void_p,
    ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p)


#: cuLaunchKernelEx's C signature.
LAUNCH_KERNEL_EX = ctypes.CFUNCTYPE(
    ctypes.c_int, ctypes.POINTER(real.CUlaunchConfig), ctypes.c_size_t,
    ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p)


#: cuStreamIsCapturing's C signature.
IS_CAPTURING = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p,
                                ctypes.POINTER(ctypes.c_int))


class FakeArray:
    def __init__(self, shape, typestr="<f4", ptr=0x7000_0000, strides=None):
        self.__cuda_array_interface__ = {
            "shape": tuple(shape), "typestr": typestr, "data": (ptr, False),
            "strides": strides, "version": 3}


class FakeDriver:
    def __init__(self, cc=(9, 0), max_smem=232448):
        self.cc = cc
        self.max_smem = max_smem
        self.calls = []           # (name, args)
        self.launches = []        # (function, grid, block, smem, stream, [u64 args])
        #: Per launch, the driver call that made it and the cluster it named:
        #: ("cuLaunchKernel", None) or ("cuLaunchKernelEx", (x, y, z)), or
        #: ("cuLaunchKernelEx", None) for a dependent launch not in clusters.
        self.launch_calls = []
        #: Per launch, the launch attributes it was given, in order, as
        #: (id, value): None for cuLaunchKernel; for cuLaunchKernelEx its
        #: config's numAttrs of them, the cluster's value (x, y, z) and
        #: programmatic stream serialization's the int it allows.
        self.launch_attributes = []
        #: Per launch, the path that made it: "c" (through the addresses
        #: runtime.native's module calls) or "ctypes" (launch_raw and
        #: launch_ex_raw).
        self.launch_paths = []
        #: Per cuLaunchKernelEx call, the address of the CUlaunchConfig it
        #: was given (the C path builds one per launch, once).
        self.ex_configs = []
        #: Exceptions raised in the C-callable stand-ins (which return an
        #: error code instead: ctypes would swallow them).
        self.callback_errors = []
        self.encoded = []         # encode_tensor_map arguments
        self.copies = {}          # device address -> bytes
        self._next = 0x1000_0000

    def _record(self, name, *args):
        self.calls.append((name, args))

    def check(self, code, call):
        if code:
            raise real.CudaError(f"{call} failed: {code}", call=call, code=code)

    def device(self, ordinal):
        return ordinal

    def device_count(self):
        return 1

    def compute_capability(self, handle):
        return self.cc

    def attribute(self, attribute, handle):
        if attribute == real.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
            return self.max_smem
        return 0

    def use_primary_context(self, ordinal):
        self._record("use_primary_context", ordinal)
        return 1

    def synchronize(self):
        self._record("synchronize")

    def load_module(self, image, what):
        self._record("load_module", what, len(image))
        return 0x100 + len([c for c in self.calls if c[0] == "load_module"])

    def unload_module(self, module):
        self._record("unload_module", module)

    def function(self, module, entry):
        self._record("function", module, entry)
        return hash(entry) & 0xFFFFFF

    def function_attribute(self, function, attribute):
        return 0

    def set_function_attribute(self, function, attribute, value):
        self._record("set_function_attribute", function, attribute, value)

    def alloc(self, nbytes):
        p = self._next
        self._next += (int(nbytes) + 255) // 256 * 256
        self._record("alloc", nbytes, p)
        return p

    def free(self, ptr):
        self._record("free", ptr)

    def zero_async(self, dst, nbytes, stream):
        self._record("zero_async", dst, nbytes, stream)

    def copy_to_device(self, dst, src, nbytes):
        self.copies[dst] = bytes(src[:nbytes])

    def alloc_host(self, nbytes):
        """Real memory: the runtime writes descriptors into it."""
        buffer = ctypes.create_string_buffer(int(nbytes))
        self._host = getattr(self, "_host", [])
        self._host.append(buffer)
        self._record("alloc_host", nbytes)
        return ctypes.addressof(buffer)

    def free_host(self, ptr):
        self._record("free_host", ptr)

    def copy_to_device_async(self, dst, src, nbytes, stream):
        self.copies[dst] = ctypes.string_at(src, nbytes)
        self._record("copy_to_device_async", dst, stream)

    #: Streams that are capturing a CUDA graph (tests set it).
    capturing = frozenset()

    def stream_capturing(self, stream):
        return stream in self.capturing

    def stream_is_capturing_address(self):
        """A C-callable cuStreamIsCapturing answering from `capturing`."""
        if not hasattr(self, "_c_capturing"):
            def is_capturing(stream, status):
                status[0] = 1 if (stream or 0) in self.capturing else 0
                return 0

            self._c_capturing = IS_CAPTURING(is_capturing)
        return ctypes.cast(self._c_capturing, ctypes.c_void_p).value

    def encode_tensor_map(self, dtype, address, shape, strides, itemsize, box,
                          swizzle):
        self.encoded.append((dtype, address, tuple(shape), tuple(strides),
                             itemsize, tuple(box), swizzle))
        return address.to_bytes(8, "little") * 16

    #: What the next launches return (0: success), consumed one per launch.
    launch_results = ()

    def _next_result(self):
        if self.launch_results:
            code, *rest = self.launch_results
            self.launch_results = tuple(rest)
            return code
        return 0

    def _launched(self, function, grid, block, smem, stream, values, call,
                  cluster, path, attributes=None):
        self.launches.append((function, tuple(grid), tuple(block), smem,
                              stream or 0, values))
        self.launch_calls.append((call, cluster))
        self.launch_attributes.append(attributes)
        self.launch_paths.append(path)
        return self._next_result()

    @staticmethod
    def _attributes_of(config):
        """The attributes of a CUlaunchConfig, read as the driver would:
        one or more, each known to the runtime and named once."""
        attributes = []
        for i in range(config.numAttrs):
            a = config.attrs[i]
            if a.id == real.CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:
                attributes.append((a.id, tuple(a.value.clusterDim)))
            elif a.id == real.CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION:
                attributes.append(
                    (a.id, a.value.programmaticStreamSerializationAllowed))
            else:
                raise AssertionError(f"unexpected launch attribute {a.id}")
        ids = [i for i, _ in attributes]
        assert ids and len(set(ids)) == len(ids), "attributes named once"
        return attributes

    def _launched_ex(self, config, function, values, path):
        self.ex_configs.append(ctypes.addressof(config))
        attributes = self._attributes_of(config)
        cluster = dict(attributes).get(real.CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
        return self._launched(
            function, (config.gridDimX, config.gridDimY, config.gridDimZ),
            (config.blockDimX, config.blockDimY, config.blockDimZ),
            config.sharedMemBytes, config.hStream, values, "cuLaunchKernelEx",
            cluster, path, attributes)

    @staticmethod
    def _terminated(params):
        """The values of a NULL-terminated parameter array (the C path's)."""
        values = []
        while params[len(values)]:
            values.append(ctypes.c_uint64.from_address(params[len(values)]).value)
        return values

    def launch_kernel_address(self):
        """A C-callable cuLaunchKernel that records as launch_raw does (the
        C launch path calls it; its parameter array is NULL-terminated)."""
        if not hasattr(self, "_c_launch"):
            def launch(function, gx, gy, gz, bx, by, bz, smem, stream, params,
                       extra):
                return self._launched(function, (gx, gy, gz), (bx, by, bz),
                                      smem, stream, self._terminated(params),
                                      "cuLaunchKernel", None, "c")

            self._c_launch = LAUNCH_KERNEL(launch)
        return ctypes.cast(self._c_launch, ctypes.c_void_p).value

    def launch_kernel_ex_address(self):
        """A C-callable cuLaunchKernelEx that records as launch_ex_raw does,
        reading the CUlaunchConfig the C path built (cuda.h's layout)."""
        if not hasattr(self, "_c_launch_ex"):
            def launch_ex(config, function, params, extra):
                # An exception in a ctypes callback is printed, not raised:
                # kept for the test, and the launch fails.
                try:
                    assert not extra and config, "a config and no extra"
                    return self._launched_ex(config.contents, function,
                                             self._terminated(params), "c")
                except Exception as e:  # noqa: BLE001
                    self.callback_errors.append(e)
                    return 1  # CUDA_ERROR_INVALID_VALUE

            self._c_launch_ex = LAUNCH_KERNEL_EX(launch_ex)
        return ctypes.cast(self._c_launch_ex, ctypes.c_void_p).value

    def launch_raw(self, function, gx, gy, gz, bx, by, bz, smem, stream, params,
                   extra):
        n = len(params)
        values = [ctypes.c_uint64.from_address(params[i]).value for i in range(n)]
        return self._launched(function, (gx, gy, gz), (bx, by, bz), smem,
                              stream, values, "cuLaunchKernel", None, "ctypes")

    def launch_ex_raw(self, config, function, params, extra):
        """cuLaunchKernelEx: reads the CUlaunchConfig as the driver would,
        recording its attributes (a cluster, programmatic serialization)."""
        n = len(params)
        values = [ctypes.c_uint64.from_address(params[i]).value for i in range(n)]
        return self._launched_ex(config, function, values, "ctypes")
