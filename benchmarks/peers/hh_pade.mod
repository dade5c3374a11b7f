: Hodgkin-Huxley squid axon channels as NEURON's hh, with the gating variables advanced by the
: (1,1) Pade approximant of exp (what Arbor's modcc emits for cnexp) instead of the exact exp.
: Diagnostic only: benchmarks/peers/cable_reference.py --pade-check.
NEURON {
    SUFFIX hhpade
    USEION na READ ena WRITE ina
    USEION k READ ek WRITE ik
    NONSPECIFIC_CURRENT il
    RANGE gnabar, gkbar, gl, el
    GLOBAL exact
}
UNITS {
    (mA) = (milliamp)
    (mV) = (millivolt)
    (S) = (siemens)
}
PARAMETER {
    gnabar = .12 (S/cm2)
    gkbar = .036 (S/cm2)
    gl = .0003 (S/cm2)
    el = -54.3 (mV)
    exact = 0 : 1: the exact exp, as NEURON's cnexp (to check this file against hh)
}
STATE { m h n }
ASSIGNED {
    v (mV)
    celsius (degC)
    dt (ms)
    ena (mV)
    ek (mV)
    ina (mA/cm2)
    ik (mA/cm2)
    il (mA/cm2)
    minf hinf ninf
    mtau (ms) htau (ms) ntau (ms)
}
BREAKPOINT {
    SOLVE advance
    ina = gnabar*m*m*m*h*(v - ena)
    ik = gkbar*n*n*n*n*(v - ek)
    il = gl*(v - el)
}
INITIAL {
    rates(v)
    m = minf
    h = hinf
    n = ninf
}
PROCEDURE advance() {
    rates(v)
    m = minf + (m - minf)*pade(-dt/mtau)
    h = hinf + (h - hinf)*pade(-dt/htau)
    n = ninf + (n - ninf)*pade(-dt/ntau)
}
FUNCTION pade(x) {
    if (exact) {
        pade = exp(x)
    } else {
        pade = (1 + x/2)/(1 - x/2)
    }
}
PROCEDURE rates(v (mV)) {
    LOCAL a, b, q10
    UNITSOFF
    q10 = 3^((celsius - 6.3)/10)
    a = .1*linoid(-(v + 40), 10)
    b = 4*exp(-(v + 65)/18)
    mtau = 1/(q10*(a + b))
    minf = a/(a + b)
    a = .07*exp(-(v + 65)/20)
    b = 1/(exp(-(v + 35)/10) + 1)
    htau = 1/(q10*(a + b))
    hinf = a/(a + b)
    a = .01*linoid(-(v + 55), 10)
    b = .125*exp(-(v + 65)/80)
    ntau = 1/(q10*(a + b))
    ninf = a/(a + b)
    UNITSON
}
FUNCTION linoid(x, y) {
    : x/(exp(x/y) - 1), its limit y near x = 0
    if (fabs(x/y) < 1e-6) {
        linoid = y*(1 - x/y/2)
    } else {
        linoid = x/(exp(x/y) - 1)
    }
}
