/**
 * A whole file import, for any page: upload (with progress) -> server-side parse -> preview and
 * validation report -> confirm -> commit (optionally a background job followed by polling) -> result.
 * The page supplies the calls, the report's counts and columns, and the texts of its domain.
 */
import { Alert, Progress, Space } from 'antd';
import { useRef, useState, type ReactNode } from 'react';
import { usePoll } from '../tabs/paneShown';
import ImportConfirm from './ImportConfirm';
import ImportReport, { type ImportReportProps, type ImportSampleRow } from './ImportReport';
import ImportResult, { type ImportOutcome } from './ImportResult';
import UploadDropzone, { type UploadDropzoneProps } from './UploadDropzone';
import UploadProgress from './UploadProgress';

/** How to follow a commit that returns while the server is still writing. */
export interface ImportJobFollow<P, J> {
  /** Delay between two polls, in milliseconds. */
  intervalMs: number;
  /** Whether the job is still writing. */
  running: (job: J) => boolean;
  /** Fetches the job's current state; a failed poll is retried after the next interval. */
  poll: (preview: P, job: J) => Promise<J>;
  /** The progress line and bar while the job runs. */
  progress: (preview: P, job: J) => { message: ReactNode; percent: number };
}

export interface ImportFlowProps<P, S extends ImportSampleRow, J> {
  /** The drop zone: accepted types, size limit and the texts describing the format. */
  dropzone: Omit<UploadDropzoneProps, 'onFile'>;
  /** Uploads the file and resolves with the server's preview; reject after the error has been shown. */
  upload: (file: File, onProgress: (percent: number) => void) => Promise<P>;
  /** The report of a preview: counts, problems, sample and its columns. */
  report: (preview: P) => ImportReportProps<S>;
  /** Rows the confirm would write (the confirm is disabled at 0). */
  validCount: (preview: P) => number;
  /** The confirm button's text for a preview. */
  confirmLabel: (preview: P) => ReactNode;
  /** Shown while the commit request is under way. */
  committingNote?: ReactNode;
  /** Writes the previewed file; reject after the error has been shown (the preview stays). */
  commit: (preview: P) => Promise<J>;
  /** Set when the commit may return a job that is still running. */
  follow?: ImportJobFollow<P, J>;
  /** How the import ended, for the result above the next upload. */
  outcome: (preview: P, job: J) => ImportOutcome;
  /** Called once the import has ended (successfully or not). */
  onDone?: (preview: P, job: J) => void;
  /** Shown below the flow whatever its step (an import history, for instance). */
  children?: ReactNode;
}

type Phase<P, J> =
  | { kind: 'idle' }
  | { kind: 'uploading'; percent: number; fileName: string }
  | { kind: 'preview'; preview: P; committing: boolean }
  | { kind: 'running'; preview: P; job: J }
  | { kind: 'done'; preview: P; job: J };

export default function ImportFlow<P, S extends ImportSampleRow, J>(props: ImportFlowProps<P, S, J>) {
  const [phase, setPhase] = useState<Phase<P, J>>({ kind: 'idle' });
  // The latest props, so the poll timer does not restart whenever the page re-renders.
  const latest = useRef(props);
  latest.current = props;

  // Follows a running job, one poll an interval after the last answer; not while the page is out of
  // view (its tab hidden, the browser tab hidden), and at once when it is back.
  const poll = async () => {
    const follow = latest.current.follow;
    if (phase.kind !== 'running' || !follow) return;
    const { preview, job } = phase;
    try {
      const next = await follow.poll(preview, job);
      const running = follow.running(next);
      setPhase((p) =>
        p.kind !== 'running' ? p : { kind: running ? 'running' : 'done', preview: p.preview, job: next },
      );
      if (!running) latest.current.onDone?.(preview, next);
    } catch {
      // A lost poll is retried an interval later.
      setPhase((p) => (p.kind === 'running' ? { ...p } : p));
    }
  };
  usePoll(() => void poll(), props.follow?.intervalMs ?? 0, phase.kind === 'running' && !!props.follow, phase);

  const upload = async (file: File) => {
    setPhase({ kind: 'uploading', percent: 0, fileName: file.name });
    try {
      const preview = await props.upload(file, (percent) =>
        setPhase({ kind: 'uploading', percent, fileName: file.name }),
      );
      setPhase({ kind: 'preview', preview, committing: false });
    } catch {
      setPhase({ kind: 'idle' }); // the request layer has shown the error
    }
  };

  const commit = async (preview: P) => {
    setPhase({ kind: 'preview', preview, committing: true });
    let job: J;
    try {
      job = await props.commit(preview);
    } catch {
      setPhase({ kind: 'preview', preview, committing: false }); // the request layer has shown the error
      return;
    }
    if (props.follow?.running(job)) {
      setPhase({ kind: 'running', preview, job });
    } else {
      setPhase({ kind: 'done', preview, job });
      props.onDone?.(preview, job);
    }
  };

  let step: ReactNode;
  if (phase.kind === 'uploading') {
    step = <UploadProgress fileName={phase.fileName} percent={phase.percent} />;
  } else if (phase.kind === 'preview') {
    const { preview, committing } = phase;
    // The confirm belongs to what it confirms: it closes the preview card.
    step = (
      <ImportReport
        {...props.report(preview)}
        footer={
          <ImportConfirm
            label={props.confirmLabel(preview)}
            disabled={props.validCount(preview) === 0}
            committing={committing}
            committingNote={props.committingNote}
            onConfirm={() => void commit(preview)}
            onCancel={() => setPhase({ kind: 'idle' })}
          />
        }
      />
    );
  } else if (phase.kind === 'running' && props.follow) {
    const { message, percent } = props.follow.progress(phase.preview, phase.job);
    step = <Alert type="info" message={message} description={<Progress percent={percent} status="active" />} />;
  } else {
    step = (
      <>
        {phase.kind === 'done' && <ImportResult {...props.outcome(phase.preview, phase.job)} />}
        <UploadDropzone {...props.dropzone} onFile={(file) => void upload(file)} />
      </>
    );
  }

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      {step}
      {props.children}
    </Space>
  );
}
