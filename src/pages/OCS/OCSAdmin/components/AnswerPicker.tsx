/**
 * Choosing or typing a question's answer as the bank stores it: one option (single), several
 * (multiple, or a choice question of unknown type), 正确/错误 (judgement), or blanks, one a line (a
 * blank may itself hold `#` or `;`).
 * The value is the answer as a list (option texts, or blanks).
 */
import type { BankType } from '@/contract';
import { Checkbox, Input, Radio } from 'antd';

interface Props {
  type: BankType;
  options: string[];
  value?: string[];
  onChange?: (v: string[]) => void;
  'aria-label'?: string;
}

const column = { display: 'flex', flexDirection: 'column' as const, gap: 4 };

export default function AnswerPicker({ type, options, value = [], onChange, ...rest }: Props) {
  const label = rest['aria-label'] ?? '答案';
  if (type === 'judgement') {
    return (
      <Radio.Group
        aria-label={label}
        value={value[0]}
        onChange={(e) => onChange?.([e.target.value as string])}
        options={['正确', '错误']}
      />
    );
  }
  if (options.length > 0) {
    const choices = options.map((o, i) => ({ value: o, label: `${String.fromCharCode(65 + i)}. ${o}` }));
    return type === 'single' ? (
      <Radio.Group
        aria-label={label}
        style={column}
        value={value[0]}
        onChange={(e) => onChange?.([e.target.value as string])}
        options={choices}
      />
    ) : (
      <Checkbox.Group
        aria-label={label}
        style={column}
        value={value}
        onChange={(v) => onChange?.(options.filter((o) => (v as string[]).includes(o)))}
        options={choices}
      />
    );
  }
  return (
    <Input.TextArea
      aria-label={label}
      placeholder="答案；多个空每个一行"
      autoSize={{ minRows: 1, maxRows: 6 }}
      value={value.join('\n')}
      onChange={(e) => onChange?.(e.target.value.split('\n').map((s) => s.trim()))}
    />
  );
}

/** The answer is complete enough to send (every blank filled, something chosen). */
export const hasAnswer = (v: string[] | undefined) => !!v && v.length > 0 && v.every((s) => s.trim() !== '');
