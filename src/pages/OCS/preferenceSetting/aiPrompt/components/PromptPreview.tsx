/**
 * The prompt the model would receive for the sample question of the chosen type, rendered by the
 * server (which also validates the template) a moment after the user stops typing.
 */
import type { AiPromptPreview, OcsAiType } from '@/contract';
import { errorMessageOf, fieldErrorsOf } from '@/requestErrorConfig';
import * as ocsAiApi from '@/contract/api/ocsAi';
import { call } from '@/services/call';
import { useDebounce, useMemoizedFn, useRequest } from 'ahooks';
import { Alert, Card, Typography } from 'antd';
import { useEffect } from 'react';

interface Props {
  template: string;
  type: OcsAiType;
  /** Told the template's validation problem, or undefined when it renders. */
  onProblem: (problem: string | undefined) => void;
}

export default function PromptPreview({ template, type, onProblem }: Props) {
  const debounced = useDebounce(template, { wait: 300 });
  const { data, error, loading } = useRequest<AiPromptPreview, []>(
    () =>
      call(ocsAiApi.promptPreview, { body: { template: debounced, type } }, { skipErrorHandler: true }).then(
        (r) => r.data,
      ),
    { refreshDeps: [debounced, type] },
  );
  const problem = error ? (fieldErrorsOf(error).template?.[0] ?? errorMessageOf(error)) : undefined;
  // The parent's callback may change every render; only a new problem should call it.
  const report = useMemoizedFn(onProblem);
  useEffect(() => report(problem), [problem, report]);

  return (
    <Card title="实时预览" size="small" loading={loading && !data && !error}>
      {problem ? (
        <Alert type="error" showIcon message={problem} />
      ) : (
        data && (
          <>
            <Typography.Paragraph type="secondary">示例题目：{data.question.title}</Typography.Paragraph>
            <pre data-testid="prompt-preview" style={{ whiteSpace: 'pre-wrap', margin: 0, fontFamily: 'inherit' }}>
              {data.prompt}
            </pre>
          </>
        )
      )}
    </Card>
  );
}
