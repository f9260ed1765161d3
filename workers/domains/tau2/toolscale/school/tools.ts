// ToolScale school's tools (tau2/domains/school/tools.py), ported call for call with the same
// errors, results and quirks: tuition is credits times a fixed rate by study level; a course listed
// twice is enrolled twice; an update re-enrolls a course that is added while already registered;
// a refund goes to the payment named, else to the last payment's method, else to "adjustment".
// New registrations are REG001-REG003, created "25-05-15". Pure TypeScript.

import { construct, deepCopy } from '../../model.ts';
import { attributeError, valueError } from '../../pyErrors.ts';
import { arith, compare, contains, getItem, inSet, iterate, lookup, negate, pyInt, sorted, subscript } from '../../pyOps.ts';
import { pyEquals, pyStr, pyTruthy, pyTypeName, type PyModel, type PyValue } from '../../pyValues.ts';
import { TableToolkit } from '../../tableSeed.ts';
import { fn, type ToolFunction } from '../../toolkit.ts';
import { type Args, asModel, asModelsOrGiven, attr, optional } from '../common.ts';
import { FinancialAid, Payment, Registration, RegistrationCourse, type CourseValue, type RegistrationCourseValue, type RegistrationValue, type SchoolDb, type StudentValue } from './model.ts';

const CREATED_AT = '25-05-15';
const RATES = new Map<string, PyValue>([
  ['undergraduate', 500],
  ['graduate', 800],
  ['continuing_ed', 400],
]);

const creditStatus = (credits: number) => (credits >= 12 ? 'full-time' : 'part-time');
const overload = (credits: number) => Math.max(0, credits - 18);

/** `_parse_time_hhmm`: "HH-MM" as minutes since midnight. */
function minutes(hhmm: PyValue): number {
  if (typeof hhmm !== 'string') throw attributeError(pyTypeName(hhmm), 'split');
  const parts = hhmm.split('-');
  if (parts.length !== 2) throw valueError(`Invalid time format: ${hhmm}`);
  return pyInt(parts[0]!) * 60 + pyInt(parts[1]!);
}

export class SchoolTools extends TableToolkit<SchoolDb> {
  readonly className = 'SchoolTools';

  readonly #student = this.rowsOf<StudentValue>('students', 'Student {id} not found');
  readonly #course = this.rowsOf<CourseValue>('courses', 'Course {id} not found');
  readonly #registration = this.rowsOf<RegistrationValue>('registrations', 'Registration {id} not found');

  /** `_check_time_conflicts`: any two courses meeting on a common day at overlapping times. */
  #checkConflicts(courses: CourseValue[]): void {
    for (let i = 0; i < courses.length; i++) {
      for (let j = i + 1; j < courses.length; j++) {
        const [a, b] = [courses[i]!.meeting_pattern, courses[j]!.meeting_pattern];
        if (!a.days.some((day) => b.days.includes(day))) continue;
        if (minutes(a.start_time_est) < minutes(b.end_time_est) && minutes(b.start_time_est) < minutes(a.end_time_est)) {
          throw valueError(`Schedule conflict between courses ${courses[i]!.course_code} and ${courses[j]!.course_code}`);
        }
      }
    }
  }

  /** The registration lines of `courses`, each with its grading option and its tuition. */
  #lines(courses: CourseValue[], gradingOptions: PyValue, studyLevel: PyValue): RegistrationCourseValue[] {
    return courses.map((c) => {
      const option = pyTruthy(gradingOptions) && contains(gradingOptions, c.course_id) ? subscriptAny(gradingOptions, c.course_id) : 'letter';
      return construct<RegistrationCourseValue>(RegistrationCourse, {
        course_id: c.course_id,
        course_code: c.course_code,
        section: '001',
        title: c.title,
        credits: c.credits,
        grading_option: option,
        tuition: arith('*', c.credits, getItem(RATES, studyLevel)),
      });
    });
  }

  /** Adds `delta` to a course's enrollment (never below 0 when it is a drop). */
  #enroll(courseId: string, delta: 1 | -1): void {
    const course = this.own<CourseValue>('courses', courseId);
    course.current_enrollment = delta === 1 ? arith('+', course.current_enrollment, 1) : Math.max(0, (course.current_enrollment as number) - 1);
  }

  #assertPaymentMethod(student: StudentValue, paymentId: PyValue): void {
    if (lookup(student.payment_methods, paymentId) === undefined) throw valueError(`Payment method ${pyStr(paymentId)} not found for student ${student.student_id}`);
  }

  readonly functions: Readonly<Record<string, ToolFunction<SchoolTools>>> = {
    get_student_details: fn(['student_id'], (kit, a) => kit.#student(a.student_id!), 'read'),
    get_course_details: fn(['course_id'], (kit, a) => kit.#course(a.course_id!), 'read'),
    get_registration_details: fn(['registration_id'], (kit, a) => kit.#registration(a.registration_id!), 'read'),
    list_departments: fn([], (kit) => sorted([...new Set([...kit.db.courses.values()].map((c) => (c as CourseValue).department))]), 'read'),
    list_courses_by_term: fn(['term'], (kit, a) => kit.#coursesByTerm(a.term!), 'read'),
    search_courses: fn(
      ['term', ...['department', 'campus', 'day', 'start_after', 'end_before'].map(optional), { name: 'open_only', default: () => false }],
      (kit, a) => kit.#search(a),
      'read',
    ),
    get_course_meeting_status: fn(['course_id', 'date'], (kit, a) => kit.#meetingStatus(a), 'read'),
    register_courses: fn(
      [
        'student_id',
        'term',
        'course_ids',
        'study_level',
        optional('grading_options'),
        { name: 'health_insurance', default: () => 'no' },
        { name: 'payment_methods', default: () => [] },
      ],
      (kit, a) => kit.#register(a),
      'write',
    ),
    update_registration_courses: fn(
      ['registration_id', 'add_course_ids', 'drop_course_ids', optional('grading_options'), { name: 'payment_id', default: () => '' }],
      (kit, a) => kit.#update(a),
      'write',
    ),
    cancel_registration: fn(['registration_id'], (kit, a) => kit.#cancel(a.registration_id!), 'write'),
    pay_registration: fn(['registration_id', 'payment'], (kit, a) => kit.#pay(a), 'write'),
  };

  #coursesByTerm(term: PyValue): Map<string, PyValue>[] {
    return ([...this.db.courses.values()] as CourseValue[])
      .filter((c) => pyEquals(c.term, term))
      .map((c) => new Map<string, PyValue>([['course_id', c.course_id], ['course_code', c.course_code], ['title', c.title]]));
  }

  #search(a: Args): CourseValue[] {
    return ([...this.db.courses.values()] as CourseValue[]).filter((c) => {
      if (!pyEquals(c.term, a.term!)) return false;
      if (pyTruthy(a.department) && !pyEquals(c.department, a.department!)) return false;
      if (pyTruthy(a.campus) && !pyEquals(c.location.campus, a.campus!)) return false;
      if (pyTruthy(a.day) && !contains(c.meeting_pattern.days, a.day!)) return false;
      if (pyTruthy(a.start_after) && minutes(c.meeting_pattern.start_time_est) < minutes(a.start_after!)) return false;
      if (pyTruthy(a.end_before) && minutes(c.meeting_pattern.end_time_est) > minutes(a.end_before!)) return false;
      if (pyTruthy(a.open_only) && !compare(c.current_enrollment, c.capacity, '<')) return false;
      return true;
    });
  }

  #meetingStatus(a: Args): PyValue {
    const status = lookup(this.#course(a.course_id!).dates, a.date!);
    if (status === undefined) throw valueError(`No record for course ${pyStr(a.course_id)} on date ${pyStr(a.date)}`);
    return status;
  }

  #register(a: Args): RegistrationValue {
    const payments = asModelsOrGiven(Payment, a.payment_methods!);
    const student = this.#student(a.student_id!);
    const courses = iterate(a.course_ids!).map((id) => this.#course(id));
    for (const c of courses) if (!pyEquals(c.term, a.term!)) throw valueError(`Course ${c.course_id} term ${c.term} does not match requested term ${pyStr(a.term)}`);
    for (const c of courses) if (compare(c.current_enrollment, c.capacity, '>=')) throw valueError(`Course ${c.course_code} is full`);
    this.#checkConflicts(courses);
    const lines = this.#lines(courses, a.grading_options!, a.study_level!);
    const credits = lines.reduce((sum, rc) => sum + rc.credits, 0);
    const due = lines.reduce((sum, rc) => sum + rc.tuition, 0) + (pyEquals(a.health_insurance!, 'yes') ? 300 : 0);
    if (!Array.isArray(payments)) throw valueError('payment_methods must be a list');
    for (const p of payments) this.#assertPaymentMethod(student, attr(p, 'payment_id'));
    const paid = payments.reduce<PyValue>((sum, p) => arith('+', sum, attr(p, 'amount')), 0);
    if (!pyEquals(paid, due)) throw valueError(`Payment amount does not add up, total due is ${due}, but paid ${pyStr(paid)}`);
    const id = ['REG001', 'REG002', 'REG003'].find((candidate) => !this.db.registrations.has(candidate));
    if (id === undefined) throw valueError('Too many registrations created in this session');
    const registration = construct<RegistrationValue>(Registration, {
      registration_id: id,
      student_id: a.student_id!,
      campus: courses.length ? courses[0]!.location.campus : 'Main',
      program: `${student.program.degree} ${student.program.major}`,
      study_level: a.study_level!,
      term: a.term!,
      status: creditStatus(credits),
      courses: deepCopy(lines),
      advisors: [],
      payment_history: deepCopy(payments),
      created_at: CREATED_AT,
      total_credits: credits,
      overload_credits: overload(credits),
      financial_aid: construct(FinancialAid, { scholarships: 0, grants: 0, loans: 0 }),
      health_insurance: a.health_insurance!,
    });
    for (const c of courses) this.#enroll(c.course_id, 1);
    this.adopt('registrations', id, registration);
    this.own<StudentValue>('students', a.student_id as string).registrations.push(id);
    return registration;
  }

  #update(a: Args): RegistrationValue {
    const found = this.#registration(a.registration_id!);
    const student = this.#student(found.student_id);
    const currentIds = found.courses.map((rc) => rc.course_id);
    // `set(drop_course_ids)`, built for each current course (so only when there is one): an
    // unhashable id raises there.
    const drop = iterate(a.drop_course_ids!);
    const targetIds: PyValue[] = currentIds.filter((id) => !drop.some((d) => inSet([], d) || pyEquals(d, id)));
    for (const id of iterate(a.add_course_ids!)) if (!contains(targetIds, id)) targetIds.push(id);
    const current = currentIds.map((id) => this.#course(id));
    const target = targetIds.map((id) => this.#course(id));
    for (const c of target) if (c.term !== found.term) throw valueError(`Course ${c.course_id} term ${c.term} does not match registration term ${found.term}`);
    for (const id of iterate(a.add_course_ids!)) {
      const c = this.#course(id);
      if (compare(c.current_enrollment, c.capacity, '>=')) throw valueError(`Course ${c.course_code} is full`);
    }
    this.#checkConflicts(target);
    const oldTuition = found.courses.reduce((sum, rc) => sum + rc.tuition, 0);
    const lines = this.#lines(target, a.grading_options!, found.study_level);
    const credits = lines.reduce((sum, rc) => sum + rc.credits, 0);
    const diff = lines.reduce((sum, rc) => sum + rc.tuition, 0) - oldTuition;
    let payment: PyModel | null = null;
    if (diff > 0) {
      if (pyEquals(a.payment_id!, '')) throw valueError('payment_id is required for additional charges');
      this.#assertPaymentMethod(student, a.payment_id!);
      payment = construct(Payment, { payment_id: a.payment_id!, amount: diff });
    } else if (diff < 0) {
      const last = found.payment_history.at(-1);
      payment = construct(Payment, { payment_id: pyTruthy(a.payment_id) ? a.payment_id! : last ? last.payment_id : 'adjustment', amount: diff });
    }
    const registration = this.own<RegistrationValue>('registrations', a.registration_id as string);
    if (payment !== null) registration.payment_history.push(payment as RegistrationValue['payment_history'][number]);
    const added = iterate(a.add_course_ids!);
    for (const id of [...drop, ...added]) inSet([], id); // set(drop_course_ids), set(add_course_ids)
    for (const c of current) if (drop.some((d) => pyEquals(d, c.course_id))) this.#enroll(c.course_id, -1);
    for (const c of target) if (added.some((d) => pyEquals(d, c.course_id))) this.#enroll(c.course_id, 1);
    registration.courses = lines;
    registration.total_credits = credits;
    registration.overload_credits = overload(credits);
    registration.status = creditStatus(credits);
    return registration;
  }

  #cancel(id: PyValue): RegistrationValue {
    this.#registration(id);
    const registration = this.own<RegistrationValue>('registrations', id as string);
    const refunds = registration.payment_history.map((p) => construct(Payment, { payment_id: p.payment_id, amount: negate(p.amount) }));
    registration.payment_history.push(...(refunds as RegistrationValue['payment_history']));
    for (const rc of registration.courses) {
      this.#course(rc.course_id);
      this.#enroll(rc.course_id, -1);
    }
    registration.courses = [];
    registration.total_credits = 0;
    registration.overload_credits = 0;
    registration.status = creditStatus(0);
    return registration;
  }

  #pay(a: Args): RegistrationValue {
    const payment = asModel(Payment, a.payment!);
    const found = this.#registration(a.registration_id!);
    this.#assertPaymentMethod(this.#student(found.student_id), attr(payment, 'payment_id'));
    const registration = this.own<RegistrationValue>('registrations', a.registration_id as string);
    registration.payment_history.push(payment as RegistrationValue['payment_history'][number]);
    return registration;
  }
}

/** `options[key]` for the grading options, whatever the agent sent (a dict, or a list or str
 * that contained the course id). */
const subscriptAny = (options: PyValue, key: string): PyValue => (options instanceof Map ? getItem(options, key) : subscript(options, key));
