/** A student as the NJIT endpoints answer (masked), shared by the UI tests that show one. */
export const zhang = {
  id: 7,
  studentNo: '202101010001',
  name: '张三',
  gender: '男' as const,
  college: '计算机工程学院',
  major: '软件工程',
  className: '软件211',
  grade: 2021,
  status: '在读' as const,
  phone: '138****1234',
  idCard: '3201**********123X',
  dormitory: '东区1栋101',
  updatedAt: '2025-01-01T00:00:00.000Z',
};
