/** The file import shared by the NJIT roster and the OCS bank: upload, report, confirm, result. */
export { default as ImportConfirm, type ImportConfirmProps } from './ImportConfirm';
export { default as ImportFlow, type ImportFlowProps, type ImportJobFollow } from './ImportFlow';
export {
  default as ImportReport,
  type ImportCounts,
  type ImportIssue,
  type ImportReportProps,
  type ImportSampleRow,
} from './ImportReport';
export { default as ImportResult, type ImportOutcome } from './ImportResult';
export { default as UploadDropzone, megabytes, type UploadDropzoneProps } from './UploadDropzone';
export { default as UploadProgress, type UploadProgressProps } from './UploadProgress';
