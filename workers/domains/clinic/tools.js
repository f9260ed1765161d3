// The clinic domain's tools. Each top-level function is the tool of the same name in domain.json:
// it gets the database (change it in place), the call's arguments (already checked against the
// tool's JSON schema) and { today }, and returns what the agent reads. Throwing an Error refuses
// the call: the agent reads the message and the database is left as it was. Runs in the QuickJS
// sandbox; no clock, no randomness.

var WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

function patientOf(db, patientId) {
  var patient = db.patients[patientId];
  if (!patient) throw new Error('No patient with id ' + patientId + '.');
  return patient;
}

function doctorOf(db, doctorId) {
  var doctor = db.doctors[doctorId];
  if (!doctor) throw new Error('No doctor with id ' + doctorId + '.');
  return doctor;
}

function appointmentOf(db, appointmentId) {
  var appointment = db.appointments[appointmentId];
  if (!appointment) throw new Error('No appointment with id ' + appointmentId + '.');
  return appointment;
}

function weekdayOf(date) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error('Give the date as YYYY-MM-DD, not "' + date + '".');
  var day = new Date(date + 'T00:00:00Z');
  if (isNaN(day.getTime())) throw new Error(date + ' is not a date.');
  return WEEKDAYS[day.getUTCDay()];
}

/** The doctor's free times on a date, after checking the date is bookable at all. */
function freeSlots(db, doctorId, date, today, ignoreAppointmentId) {
  var doctor = doctorOf(db, doctorId);
  var weekday = weekdayOf(date);
  if (!(date > today)) throw new Error('Appointments can only be made for a date after today (' + today + ').');
  if (doctor.days.indexOf(weekday) === -1) {
    throw new Error(doctor.name + ' does not work on ' + weekday + ' (' + date + '); working days: ' + doctor.days.join(', ') + '.');
  }
  var taken = Object.keys(db.appointments)
    .filter(function (id) {
      var a = db.appointments[id];
      return id !== ignoreAppointmentId && a.doctor_id === doctorId && a.date === date && a.status === 'booked';
    })
    .map(function (id) { return db.appointments[id].time; });
  return doctor.slots.filter(function (time) { return taken.indexOf(time) === -1; });
}

function nextId(table, prefix) {
  var highest = Object.keys(table).reduce(function (max, id) {
    var n = Number(id.slice(prefix.length));
    return n > max ? n : max;
  }, 0);
  return prefix + (highest + 1);
}

function find_patient(db, args) {
  var name = args.name.trim().toLowerCase();
  var id = Object.keys(db.patients).find(function (key) {
    var p = db.patients[key];
    return p.name.toLowerCase() === name && p.date_of_birth === args.date_of_birth;
  });
  if (!id) throw new Error('No patient named ' + args.name + ' born on ' + args.date_of_birth + '.');
  return { patient_id: id, name: db.patients[id].name };
}

function get_patient(db, args) {
  return Object.assign({ patient_id: args.patient_id }, patientOf(db, args.patient_id));
}

function list_doctors(db, args) {
  return Object.keys(db.doctors)
    .filter(function (id) { return !args.specialty || db.doctors[id].specialty === args.specialty; })
    .map(function (id) {
      var d = db.doctors[id];
      return { doctor_id: id, name: d.name, specialty: d.specialty, days: d.days, accepts_new_patients: d.accepts_new_patients };
    });
}

function get_available_slots(db, args, context) {
  return { doctor_id: args.doctor_id, date: args.date, free: freeSlots(db, args.doctor_id, args.date, context.today) };
}

function list_appointments(db, args) {
  patientOf(db, args.patient_id);
  return Object.keys(db.appointments)
    .filter(function (id) { return db.appointments[id].patient_id === args.patient_id; })
    .map(function (id) {
      var a = db.appointments[id];
      return { appointment_id: id, doctor_id: a.doctor_id, doctor: doctorOf(db, a.doctor_id).name, date: a.date, time: a.time, status: a.status, visit_type: a.visit_type };
    });
}

function book_appointment(db, args, context) {
  patientOf(db, args.patient_id);
  var free = freeSlots(db, args.doctor_id, args.date, context.today);
  if (free.indexOf(args.time) === -1) {
    throw new Error(args.time + ' on ' + args.date + ' is not a free slot of ' + db.doctors[args.doctor_id].name + '. Free: ' + (free.join(', ') || 'none') + '.');
  }
  var id = nextId(db.appointments, 'A-');
  db.appointments[id] = {
    patient_id: args.patient_id,
    doctor_id: args.doctor_id,
    date: args.date,
    time: args.time,
    status: 'booked',
    visit_type: args.visit_type,
  };
  return { appointment_id: id, doctor: db.doctors[args.doctor_id].name, date: args.date, time: args.time };
}

function cancel_appointment(db, args) {
  var appointment = appointmentOf(db, args.appointment_id);
  if (appointment.status !== 'booked') throw new Error('Appointment ' + args.appointment_id + ' is ' + appointment.status + ', not booked.');
  appointment.status = 'cancelled';
  return { appointment_id: args.appointment_id, status: 'cancelled' };
}

function reschedule_appointment(db, args, context) {
  var appointment = appointmentOf(db, args.appointment_id);
  if (appointment.status !== 'booked') throw new Error('Appointment ' + args.appointment_id + ' is ' + appointment.status + ', not booked.');
  var free = freeSlots(db, appointment.doctor_id, args.date, context.today, args.appointment_id);
  if (free.indexOf(args.time) === -1) {
    throw new Error(args.time + ' on ' + args.date + ' is not a free slot of ' + db.doctors[appointment.doctor_id].name + '. Free: ' + (free.join(', ') || 'none') + '.');
  }
  appointment.date = args.date;
  appointment.time = args.time;
  return { appointment_id: args.appointment_id, date: args.date, time: args.time };
}

function list_prescriptions(db, args) {
  patientOf(db, args.patient_id);
  return Object.keys(db.prescriptions)
    .filter(function (id) { return db.prescriptions[id].patient_id === args.patient_id; })
    .map(function (id) { return Object.assign({ prescription_id: id }, db.prescriptions[id]); });
}

function request_refill(db, args, context) {
  var prescription = db.prescriptions[args.prescription_id];
  if (!prescription) throw new Error('No prescription with id ' + args.prescription_id + '.');
  if (prescription.refills_left < 1) throw new Error(prescription.medication + ' has no refills left; the patient needs a new prescription.');
  prescription.refills_left -= 1;
  prescription.last_refill = context.today;
  var id = nextId(db.refill_requests, 'RR-');
  db.refill_requests[id] = { prescription_id: args.prescription_id, requested: context.today, status: 'submitted' };
  return { refill_request_id: id, medication: prescription.medication, refills_left: prescription.refills_left };
}

function update_insurance(db, args) {
  var patient = patientOf(db, args.patient_id);
  patient.insurance = { provider: args.provider, member_id: args.member_id };
  return { patient_id: args.patient_id, insurance: patient.insurance };
}

function update_phone(db, args) {
  var patient = patientOf(db, args.patient_id);
  patient.phone = args.phone;
  return { patient_id: args.patient_id, phone: patient.phone };
}
