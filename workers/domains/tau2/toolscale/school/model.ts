// ToolScale school's data model (tau2/domains/school/data_model.py), field by field in its order.
// A saved contact's birth date is read from the key "date-of-birth" (its alias) and dumped as
// date_of_birth, as pydantic does. Pure TypeScript.

import { aliased, t } from '../../model.ts';
import type { PyModel, PyValue } from '../../pyValues.ts';
import { database, opt, shape } from '../common.ts';

const YES_NO = t.choice(['yes', 'no']);
const Name = shape('Name', { first_name: t.str, last_name: t.str });
const StudentAddress = shape('StudentAddress', { street: t.str, city: t.str, country: t.str, state: t.str, zip: t.str });
export const Payment = shape('Payment', { payment_id: t.str, amount: t.int });
const Instructor = shape('Instructor', { first_name: t.str, last_name: t.str, email: t.str });
const Location = shape('Location', { campus: t.str, building: t.str, room: t.str });
const MeetingPattern = shape('MeetingPattern', {
  days: t.list(t.choice(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'])),
  start_time_est: t.str,
  end_time_est: t.str,
});
const CourseDateStatusHeld = shape('CourseDateStatusHeld', { status: t.choice(['held']), topic: t.str, actual_start_time_est: t.str, actual_end_time_est: t.str, notes: opt(t.str) });
const CourseDateStatusCanceled = shape('CourseDateStatusCanceled', { status: t.choice(['canceled']), topic: t.str, notes: opt(t.str) });
const CourseDateStatusRescheduled = shape('CourseDateStatusRescheduled', {
  status: t.choice(['rescheduled']),
  topic: t.str,
  actual_start_time_est: t.str,
  actual_end_time_est: t.str,
  notes: opt(t.str),
});
const Course = shape('Course', {
  course_id: t.str,
  department: t.str,
  course_code: t.str,
  title: t.str,
  credits: t.int,
  term: t.str,
  instructor: t.model(Instructor),
  location: t.model(Location),
  scheduled_first_meeting_est: t.str,
  scheduled_last_meeting_est: t.str,
  meeting_pattern: t.model(MeetingPattern),
  dates: t.dict(t.union(CourseDateStatusHeld, CourseDateStatusCanceled, CourseDateStatusRescheduled)),
  capacity: t.int,
  waitlist_capacity: t.int,
  current_enrollment: t.int,
  current_waitlist: t.int,
});
const StudentPaymentMethodExtraInfo = shape('StudentPaymentMethodExtraInfo', { brand: opt(t.str), last_four: opt(t.str) });
const StudentPaymentMethod = shape('StudentPaymentMethod', { source: t.str, payment_method_id: t.str, extra_info: t.model(StudentPaymentMethodExtraInfo) });
const SavedContact = shape('SavedContact', {
  first_name: t.str,
  last_name: t.str,
  relationship: t.str,
  phone: t.str,
  date_of_birth: aliased('date_of_birth', 'date-of-birth', t.str),
});
const Program = shape('Program', { school: t.str, degree: t.str, major: t.str, minor: opt(t.str) });
const Student = shape('Student', {
  student_id: t.str,
  name: t.model(Name),
  address: t.model(StudentAddress),
  email: t.str,
  dob: t.str,
  payment_methods: t.dict(t.model(StudentPaymentMethod)),
  saved_contacts: t.list(t.model(SavedContact)),
  program: t.model(Program),
  membership: opt(t.str),
  registrations: t.list(t.str),
});
export const RegistrationCourse = shape('RegistrationCourse', {
  course_id: t.str,
  course_code: t.str,
  section: t.str,
  title: t.str,
  credits: t.int,
  grading_option: t.choice(['letter', 'pass/fail', 'audit']),
  tuition: t.int,
});
const Advisor = shape('Advisor', { first_name: t.str, last_name: t.str, email: t.str });
export const FinancialAid = shape('FinancialAid', { scholarships: t.int, grants: t.int, loans: t.int });
export const Registration = shape('Registration', {
  registration_id: t.str,
  student_id: t.str,
  campus: t.str,
  program: t.str,
  study_level: t.choice(['undergraduate', 'graduate', 'continuing_ed']),
  term: t.str,
  status: t.choice(['full-time', 'part-time']),
  courses: t.list(t.model(RegistrationCourse)),
  advisors: t.list(t.model(Advisor)),
  payment_history: t.list(t.model(Payment)),
  created_at: t.str,
  total_credits: t.int,
  overload_credits: t.int,
  financial_aid: t.model(FinancialAid),
  health_insurance: YES_NO,
});
export const SchoolDbSchema = database('SchoolDB', { courses: Course, students: Student, registrations: Registration });

// The shapes the tools read and write (a model's dump form).
export type CourseValue = PyModel & {
  course_id: string;
  department: string;
  course_code: string;
  title: string;
  credits: number;
  term: string;
  location: { campus: string };
  meeting_pattern: { days: string[]; start_time_est: string; end_time_est: string };
  dates: Map<string, PyValue>;
  capacity: number;
  current_enrollment: PyValue;
};
export type StudentValue = PyModel & { student_id: string; payment_methods: Map<string, PyValue>; program: { degree: string; major: string }; registrations: PyValue[] };
export type RegistrationCourseValue = PyModel & { course_id: string; credits: number; tuition: number };
export type RegistrationValue = PyModel & {
  student_id: string;
  term: string;
  study_level: string;
  courses: RegistrationCourseValue[];
  payment_history: (PyModel & { payment_id: string; amount: PyValue })[];
};
export type SchoolDb = { courses: Map<string, PyValue>; students: Map<string, PyValue>; registrations: Map<string, PyValue> };
