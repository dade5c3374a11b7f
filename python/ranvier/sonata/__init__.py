"""SONATA (Dai et al. 2020): networks in HDF5 and CSV files built by ``SonataNetwork`` as
NEST 3.10 builds them, spike files read as inputs and written by the ``sonata`` recording
backend. The modules import h5py when they first need it (``pip install h5py``)."""
