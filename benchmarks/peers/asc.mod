COMMENT
The artificial spiking cell of Hines, Kumar and Schuermann (2011, after Kumar et al.
2010), the same cell as Ranvier's artificial_spiking_cell.

After each spike the cell draws an interval I ~ U(interval_min, interval_max) from its own
Random123 stream and its state m relaxes from 0 towards m_inf = 1 / (1 - exp(-I/tau)), so that
m reaches 1 exactly I later; a self event (flag 1) is scheduled for then. An input of weight w
adds w to m: if m >= 1 the self event moves to now, otherwise to the time the relaxation now
reaches 1, t + tau * log((m_inf - m) / (m_inf - 1)). Computation happens only at input and
output events (one exp and one log per input).

Each instance has its own Random123 stream (NEURON 9's RANDOM construct), keyed by the RANGE
parameters id (the gid) and seed: INITIAL sets the stream ids to (id, 3, seed) and rewinds it,
so the firing depends neither on the number of processes nor on earlier runs. (Setting the
ids from Python with cell.ranvar.set_ids() before the first finitialize did not take effect in
NEURON 9.0.2 here: the streams followed the instances' creation order instead.)
ENDCOMMENT

NEURON {
  ARTIFICIAL_CELL ASC
  RANGE tau, interval_min, interval_max, m, minf, t0, tnext, nspike, id, seed
  RANDOM ranvar
}

PARAMETER {
  tau = 10 (ms)
  interval_min = 20 (ms)
  interval_max = 40 (ms)
  id = 0
  seed = 0
}

ASSIGNED {
  m
  minf
  t0 (ms)
  tnext (ms)
  nspike
}

INITIAL {
  random_setids(ranvar, id, 3, seed)
  random_setseq(ranvar, 0)
  nspike = 0
  start_interval()
  net_send(tnext - t, 1)
}

PROCEDURE start_interval() {
  LOCAL interval
  interval = interval_min + (interval_max - interval_min) * random_uniform(ranvar)
  m = 0
  minf = 1 / (1 - exp(-interval / tau))
  t0 = t
  tnext = t + interval
}

NET_RECEIVE (w) {
  if (flag == 1) {
    net_event(t)
    nspike = nspike + 1
    start_interval()
    net_send(tnext - t, 1)
  } else {
    m = minf + (m - minf) * exp(-(t - t0) / tau) + w
    t0 = t
    if (m >= 1) {
      tnext = t
    } else {
      tnext = t + tau * log((minf - m) / (minf - 1))
    }
    net_move(tnext)
  }
}
