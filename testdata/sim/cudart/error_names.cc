// Names and descriptions of cudaError_t values, for cudaGetErrorName/cudaGetErrorString.
// The name list was generated from the CUDA 13.0 driver_types.h enum (compiled against
// it, so a renamed or removed value fails the build); descriptions are the real runtime's
// strings for the errors the simulator returns, and the name for the rest.
#include "testdata/sim/cudart/error_names.h"

#include <cuda_runtime_api.h>

namespace sim {
namespace {

struct ErrorText {
  cudaError_t code;
  const char* name;
};

constexpr ErrorText kErrorNames[] = {
    {cudaSuccess, "cudaSuccess"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation"},
    {cudaErrorInitializationError, "cudaErrorInitializationError"},
    {cudaErrorCudartUnloading, "cudaErrorCudartUnloading"},
    {cudaErrorProfilerDisabled, "cudaErrorProfilerDisabled"},
    {cudaErrorProfilerNotInitialized, "cudaErrorProfilerNotInitialized"},
    {cudaErrorProfilerAlreadyStarted, "cudaErrorProfilerAlreadyStarted"},
    {cudaErrorProfilerAlreadyStopped, "cudaErrorProfilerAlreadyStopped"},
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration"},
    {cudaErrorInvalidPitchValue, "cudaErrorInvalidPitchValue"},
    {cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol"},
    {cudaErrorInvalidHostPointer, "cudaErrorInvalidHostPointer"},
    {cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer"},
    {cudaErrorInvalidTexture, "cudaErrorInvalidTexture"},
    {cudaErrorInvalidTextureBinding, "cudaErrorInvalidTextureBinding"},
    {cudaErrorInvalidChannelDescriptor, "cudaErrorInvalidChannelDescriptor"},
    {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection"},
    {cudaErrorAddressOfConstant, "cudaErrorAddressOfConstant"},
    {cudaErrorTextureFetchFailed, "cudaErrorTextureFetchFailed"},
    {cudaErrorTextureNotBound, "cudaErrorTextureNotBound"},
    {cudaErrorSynchronizationError, "cudaErrorSynchronizationError"},
    {cudaErrorInvalidFilterSetting, "cudaErrorInvalidFilterSetting"},
    {cudaErrorInvalidNormSetting, "cudaErrorInvalidNormSetting"},
    {cudaErrorMixedDeviceExecution, "cudaErrorMixedDeviceExecution"},
    {cudaErrorNotYetImplemented, "cudaErrorNotYetImplemented"},
    {cudaErrorMemoryValueTooLarge, "cudaErrorMemoryValueTooLarge"},
    {cudaErrorStubLibrary, "cudaErrorStubLibrary"},
    {cudaErrorInsufficientDriver, "cudaErrorInsufficientDriver"},
    {cudaErrorCallRequiresNewerDriver, "cudaErrorCallRequiresNewerDriver"},
    {cudaErrorInvalidSurface, "cudaErrorInvalidSurface"},
    {cudaErrorDuplicateVariableName, "cudaErrorDuplicateVariableName"},
    {cudaErrorDuplicateTextureName, "cudaErrorDuplicateTextureName"},
    {cudaErrorDuplicateSurfaceName, "cudaErrorDuplicateSurfaceName"},
    {cudaErrorDevicesUnavailable, "cudaErrorDevicesUnavailable"},
    {cudaErrorIncompatibleDriverContext, "cudaErrorIncompatibleDriverContext"},
    {cudaErrorMissingConfiguration, "cudaErrorMissingConfiguration"},
    {cudaErrorPriorLaunchFailure, "cudaErrorPriorLaunchFailure"},
    {cudaErrorLaunchMaxDepthExceeded, "cudaErrorLaunchMaxDepthExceeded"},
    {cudaErrorLaunchFileScopedTex, "cudaErrorLaunchFileScopedTex"},
    {cudaErrorLaunchFileScopedSurf, "cudaErrorLaunchFileScopedSurf"},
    {cudaErrorSyncDepthExceeded, "cudaErrorSyncDepthExceeded"},
    {cudaErrorLaunchPendingCountExceeded, "cudaErrorLaunchPendingCountExceeded"},
    {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction"},
    {cudaErrorNoDevice, "cudaErrorNoDevice"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice"},
    {cudaErrorDeviceNotLicensed, "cudaErrorDeviceNotLicensed"},
    {cudaErrorSoftwareValidityNotEstablished, "cudaErrorSoftwareValidityNotEstablished"},
    {cudaErrorStartupFailure, "cudaErrorStartupFailure"},
    {cudaErrorInvalidKernelImage, "cudaErrorInvalidKernelImage"},
    {cudaErrorDeviceUninitialized, "cudaErrorDeviceUninitialized"},
    {cudaErrorMapBufferObjectFailed, "cudaErrorMapBufferObjectFailed"},
    {cudaErrorUnmapBufferObjectFailed, "cudaErrorUnmapBufferObjectFailed"},
    {cudaErrorArrayIsMapped, "cudaErrorArrayIsMapped"},
    {cudaErrorAlreadyMapped, "cudaErrorAlreadyMapped"},
    {cudaErrorNoKernelImageForDevice, "cudaErrorNoKernelImageForDevice"},
    {cudaErrorAlreadyAcquired, "cudaErrorAlreadyAcquired"},
    {cudaErrorNotMapped, "cudaErrorNotMapped"},
    {cudaErrorNotMappedAsArray, "cudaErrorNotMappedAsArray"},
    {cudaErrorNotMappedAsPointer, "cudaErrorNotMappedAsPointer"},
    {cudaErrorECCUncorrectable, "cudaErrorECCUncorrectable"},
    {cudaErrorUnsupportedLimit, "cudaErrorUnsupportedLimit"},
    {cudaErrorDeviceAlreadyInUse, "cudaErrorDeviceAlreadyInUse"},
    {cudaErrorPeerAccessUnsupported, "cudaErrorPeerAccessUnsupported"},
    {cudaErrorInvalidPtx, "cudaErrorInvalidPtx"},
    {cudaErrorInvalidGraphicsContext, "cudaErrorInvalidGraphicsContext"},
    {cudaErrorNvlinkUncorrectable, "cudaErrorNvlinkUncorrectable"},
    {cudaErrorJitCompilerNotFound, "cudaErrorJitCompilerNotFound"},
    {cudaErrorUnsupportedPtxVersion, "cudaErrorUnsupportedPtxVersion"},
    {cudaErrorJitCompilationDisabled, "cudaErrorJitCompilationDisabled"},
    {cudaErrorUnsupportedExecAffinity, "cudaErrorUnsupportedExecAffinity"},
    {cudaErrorUnsupportedDevSideSync, "cudaErrorUnsupportedDevSideSync"},
    {cudaErrorContained, "cudaErrorContained"},
    {cudaErrorInvalidSource, "cudaErrorInvalidSource"},
    {cudaErrorFileNotFound, "cudaErrorFileNotFound"},
    {cudaErrorSharedObjectSymbolNotFound, "cudaErrorSharedObjectSymbolNotFound"},
    {cudaErrorSharedObjectInitFailed, "cudaErrorSharedObjectInitFailed"},
    {cudaErrorOperatingSystem, "cudaErrorOperatingSystem"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle"},
    {cudaErrorIllegalState, "cudaErrorIllegalState"},
    {cudaErrorLossyQuery, "cudaErrorLossyQuery"},
    {cudaErrorSymbolNotFound, "cudaErrorSymbolNotFound"},
    {cudaErrorNotReady, "cudaErrorNotReady"},
    {cudaErrorIllegalAddress, "cudaErrorIllegalAddress"},
    {cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources"},
    {cudaErrorLaunchTimeout, "cudaErrorLaunchTimeout"},
    {cudaErrorLaunchIncompatibleTexturing, "cudaErrorLaunchIncompatibleTexturing"},
    {cudaErrorPeerAccessAlreadyEnabled, "cudaErrorPeerAccessAlreadyEnabled"},
    {cudaErrorPeerAccessNotEnabled, "cudaErrorPeerAccessNotEnabled"},
    {cudaErrorSetOnActiveProcess, "cudaErrorSetOnActiveProcess"},
    {cudaErrorContextIsDestroyed, "cudaErrorContextIsDestroyed"},
    {cudaErrorAssert, "cudaErrorAssert"},
    {cudaErrorTooManyPeers, "cudaErrorTooManyPeers"},
    {cudaErrorHostMemoryAlreadyRegistered, "cudaErrorHostMemoryAlreadyRegistered"},
    {cudaErrorHostMemoryNotRegistered, "cudaErrorHostMemoryNotRegistered"},
    {cudaErrorHardwareStackError, "cudaErrorHardwareStackError"},
    {cudaErrorIllegalInstruction, "cudaErrorIllegalInstruction"},
    {cudaErrorMisalignedAddress, "cudaErrorMisalignedAddress"},
    {cudaErrorInvalidAddressSpace, "cudaErrorInvalidAddressSpace"},
    {cudaErrorInvalidPc, "cudaErrorInvalidPc"},
    {cudaErrorLaunchFailure, "cudaErrorLaunchFailure"},
    {cudaErrorCooperativeLaunchTooLarge, "cudaErrorCooperativeLaunchTooLarge"},
    {cudaErrorTensorMemoryLeak, "cudaErrorTensorMemoryLeak"},
    {cudaErrorNotPermitted, "cudaErrorNotPermitted"},
    {cudaErrorNotSupported, "cudaErrorNotSupported"},
    {cudaErrorSystemNotReady, "cudaErrorSystemNotReady"},
    {cudaErrorSystemDriverMismatch, "cudaErrorSystemDriverMismatch"},
    {cudaErrorCompatNotSupportedOnDevice, "cudaErrorCompatNotSupportedOnDevice"},
    {cudaErrorMpsConnectionFailed, "cudaErrorMpsConnectionFailed"},
    {cudaErrorMpsRpcFailure, "cudaErrorMpsRpcFailure"},
    {cudaErrorMpsServerNotReady, "cudaErrorMpsServerNotReady"},
    {cudaErrorMpsMaxClientsReached, "cudaErrorMpsMaxClientsReached"},
    {cudaErrorMpsMaxConnectionsReached, "cudaErrorMpsMaxConnectionsReached"},
    {cudaErrorMpsClientTerminated, "cudaErrorMpsClientTerminated"},
    {cudaErrorCdpNotSupported, "cudaErrorCdpNotSupported"},
    {cudaErrorCdpVersionMismatch, "cudaErrorCdpVersionMismatch"},
    {cudaErrorStreamCaptureUnsupported, "cudaErrorStreamCaptureUnsupported"},
    {cudaErrorStreamCaptureInvalidated, "cudaErrorStreamCaptureInvalidated"},
    {cudaErrorStreamCaptureMerge, "cudaErrorStreamCaptureMerge"},
    {cudaErrorStreamCaptureUnmatched, "cudaErrorStreamCaptureUnmatched"},
    {cudaErrorStreamCaptureUnjoined, "cudaErrorStreamCaptureUnjoined"},
    {cudaErrorStreamCaptureIsolation, "cudaErrorStreamCaptureIsolation"},
    {cudaErrorStreamCaptureImplicit, "cudaErrorStreamCaptureImplicit"},
    {cudaErrorCapturedEvent, "cudaErrorCapturedEvent"},
    {cudaErrorStreamCaptureWrongThread, "cudaErrorStreamCaptureWrongThread"},
    {cudaErrorTimeout, "cudaErrorTimeout"},
    {cudaErrorGraphExecUpdateFailure, "cudaErrorGraphExecUpdateFailure"},
    {cudaErrorExternalDevice, "cudaErrorExternalDevice"},
    {cudaErrorInvalidClusterSize, "cudaErrorInvalidClusterSize"},
    {cudaErrorFunctionNotLoaded, "cudaErrorFunctionNotLoaded"},
    {cudaErrorInvalidResourceType, "cudaErrorInvalidResourceType"},
    {cudaErrorInvalidResourceConfiguration, "cudaErrorInvalidResourceConfiguration"},
    {cudaErrorUnknown, "cudaErrorUnknown"},
};

struct ErrorDescription {
  cudaError_t code;
  const char* text;
};

constexpr ErrorDescription kDescriptions[] = {
    {cudaSuccess, "no error"},
    {cudaErrorInvalidValue, "invalid argument"},
    {cudaErrorMemoryAllocation, "out of memory"},
    {cudaErrorInitializationError, "initialization error"},
    {cudaErrorInvalidConfiguration, "invalid configuration argument"},
    {cudaErrorInvalidMemcpyDirection, "invalid copy direction for memcpy"},
    {cudaErrorInvalidDevice, "invalid device ordinal"},
    {cudaErrorInvalidDeviceFunction, "invalid device function"},
    {cudaErrorInvalidResourceHandle, "invalid resource handle"},
    {cudaErrorNoDevice, "no CUDA-capable device is detected"},
    {cudaErrorNotReady, "device not ready"},
    {cudaErrorIllegalState, "the operation cannot be performed in the present state"},
    {cudaErrorStreamCaptureUnsupported, "operation not permitted when stream is capturing"},
    {cudaErrorStreamCaptureInvalidated, "operation failed due to a previous error during capture"},
    {cudaErrorStreamCaptureUnmatched, "capture was not initiated in this stream"},
    {cudaErrorStreamCaptureImplicit,
     "operation would make the legacy stream depend on a capturing blocking stream"},
    {cudaErrorInvalidPitchValue, "invalid pitch argument"},
    {cudaErrorNotSupported, "operation not supported"},
    {cudaErrorUnknown, "unknown error"},
};

}  // namespace

const char* ErrorName(cudaError_t error) {
  for (const ErrorText& entry : kErrorNames) {
    if (entry.code == error) return entry.name;
  }
  return nullptr;
}

const char* ErrorDescriptionText(cudaError_t error) {
  for (const ErrorDescription& entry : kDescriptions) {
    if (entry.code == error) return entry.text;
  }
  return ErrorName(error);
}

}  // namespace sim
