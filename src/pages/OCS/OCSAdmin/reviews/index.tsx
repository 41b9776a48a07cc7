/**
 * /OCS/OCSAdmin/reviews: users' reports of wrong answers. Accepting corrects the bank (the old answer
 * stays in the question's history) and refunds the reporters who were charged; rejecting lowers the
 * reporters' weight; duplicates can be merged. Several independent reports mark an answer 存疑 (how
 * such answers are served is a service setting).
 */
import { PageContainer } from '@ant-design/pro-components';
import ReviewTable from './components/ReviewTable';

export default function ReviewsPage() {
  return (
    <PageContainer
      title="纠错审核"
      content="用户反馈的错误答案：采纳后更正题库并给被扣费的反馈者退款，驳回后反馈者的权重降低；多位用户独立反馈的答案会被标记为“存疑”。"
    >
      <ReviewTable />
    </PageContainer>
  );
}
